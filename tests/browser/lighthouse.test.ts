import path from 'node:path';
import type { LaunchedChrome } from 'chrome-launcher';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PRERENDERED_PATHS } from '../../server/http/site-pages.js';
import { auditPage, CATEGORIES, launchLighthouseChrome, type PageScore, writeBenchmarks } from '../helpers/lighthouse.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Lighthouse 12 (mobile preset, simulated throttling) on the production build
 * of every public page; it writes the figures to docs/benchmarks.md.
 *
 * Goal: 100 in every category, LCP ≤ 1.5 s, TBT ≤ 100 ms, CLS ≤ 0.02 and
 * at most 100 KB of compressed JavaScript on `/`. Lab scores move with the
 * machine's load (TBT most of all): each run fits its CPU slowdown to the host's
 * measured speed (cpuSlowdownFor), each page gets three runs and the median counts (never the best of several).
 * What is asserted: every category ≥ 95 (performance too: the pages measure 96–100 since
 * they paint before their JavaScript loads, decision 062), CLS ≤ 0.02 and the JavaScript
 * budgets below (`/` at the goal, the others at what they measure plus a small margin).
 * LCP and TBT are reported, not asserted on their own: they count in the performance score,
 * and TBT moves by tens of ms between runs on a shared host.
 */
const MIN_SCORE = 95;
/**
 * 95, as for the other categories. On 26 Nov 2026 (Chromium 156.0.8078.108, a 2-core host at load averages
 * of 12-17) the landed pages measured 77-98 and TBT 160-1,100 ms, with the same code scoring 77 and 97 a
 * minute apart: Lighthouse simulates the phone from the wall time of each main-thread task, and the host's
 * other processes stretched that 3-10x. Decision 108 cut the real work (hydration in a transition, React
 * yielding every 5 ms; no locale data loaded during hydration; the loader's preloads one per task, no
 * longer one task of 100-240 ms) and this test now reads the trace's CPU time as well: when the host
 * stretched the main thread more than STRETCHED, the performance that counts is Lighthouse's own score with
 * TBT taken from CPU time (hostStretch in tests/helpers/lighthouse.ts); on a quiet host it is the plain score.
 */
const MIN_PERFORMANCE = 95;
/** Median wall over CPU time of the main thread's tasks above which the host, not the page, decided TBT (on a quiet host a task that only computes takes its CPU time). */
const STRETCHED = 1.25;
const MAX_CLS = 0.02;
/** Compressed JavaScript each page may transfer while it loads (measured with Lighthouse; bytes). */
const JS_BUDGET: Record<(typeof PRERENDERED_PATHS)[number], number> = {
  // The goal. Public pages hydrate without React Query, tRPC or sonner (decision 061): about 95 KB.
  '/': 100_000,
  '/about-us': 108_000,
  '/pricing-plans': 140_000,
  '/faq': 117_000,
  // The booking form (rules, slot picker, data layer, dialog) loads when Book now is pointed at or pressed.
  '/consult': 105_000,
  // These two show a form on their first screen, so the form libraries and the data layer load with them.
  '/contact-us': 168_000,
  // The form's rules (zod) load on the form's first focus, the forgot-password dialog when opened.
  '/login': 145_000,
};
const RUNS = 3;
/** Runs that lost their trace and are tried again, per page. */
const RETRIES = 2;
/** Chunks of the signed-in areas: a public page must never download them. */
const PRIVATE_CHUNK = /\/assets\/(DashboardArea|AdminArea)-[\w-]+\.js$/;

let server: TestServer;
let chrome: LaunchedChrome;
const results: PageScore[] = [];
/** The host's CPU benchmark index from the latest run: each run simulates the phone from it (cpuSlowdownFor). */
let hostIndex: number | undefined;

beforeAll(async () => {
  [server, chrome] = await Promise.all([startTestServer({}, { serveClient: true }), launchLighthouseChrome()]);
  // A first navigation warms Chromium up (the very first trace can miss its navigation start), and
  // measures the host's CPU for the next run's slowdown.
  hostIndex = (await auditPage(chrome.port, server.url, '/').catch(() => null))?.benchmarkIndex;
});
afterAll(async () => {
  if (results.length === PRERENDERED_PATHS.length) {
    writeBenchmarks(
      path.resolve('docs/benchmarks.md'),
      results,
      `Lighthouse 12.8 (mobile preset, simulated throttling) on the production build, the median of ${RUNS} runs a page, from \`npx vitest run tests/browser/lighthouse.test.ts\` on ${new Date().toISOString().slice(0, 10)}. JS transferred is compressed (Brotli). The CPU slowdown is fitted to the host's measured benchmark index so that a busy host still simulates the same phone (at most Lighthouse's 4×; tests/helpers/lighthouse.ts). The last column reads the run's trace: how much the host stretched the main thread's tasks (wall over CPU time, median), and TBT and the performance score with TBT from CPU time at 4×, which count when the stretch is above 1.25 (decision 108).`,
    );
  }
  chrome?.kill();
  await server?.stop();
});

/** The performance that counts: Lighthouse's score, or with TBT from CPU time when the host stretched the run (see MIN_PERFORMANCE). */
const performanceOf = (s: PageScore) => (s.stretch > STRETCHED ? s.cpuPerformance : s.scores.performance);
/** The run that counts: the median of a page's runs by the performance that counts, as the issue's own check takes it (never the best of several). */
const median = (runs: PageScore[]) => [...runs].sort((a, b) => performanceOf(a) - performanceOf(b))[Math.floor(runs.length / 2)] ?? null;

for (const route of PRERENDERED_PATHS) {
  it(`${route}: accessibility, best practices, SEO ≥ ${MIN_SCORE}, performance ≥ ${MIN_PERFORMANCE}, CLS ≤ ${MAX_CLS}, JS ≤ ${JS_BUDGET[route]} bytes`, {
    timeout: 240_000,
  }, async () => {
    const runs: PageScore[] = [];
    // Lighthouse now and then loses a trace (NO_NAVSTART, NO_FCP on a busy host): such a run measured
    // nothing, so it is run again, up to RETRIES times in all; a page still needs RUNS real runs.
    for (let run = 0; run < RUNS + RETRIES && runs.length < RUNS; run++) {
      const score = await auditPage(chrome.port, server.url, route, hostIndex).catch((err: Error) => {
        console.warn(`${route} run ${run + 1}: ${err.message}`);
        return null;
      });
      if (score) {
        hostIndex = score.benchmarkIndex;
        runs.push(score);
      }
    }
    const counted = runs.length === RUNS ? median(runs) : null;
    if (!counted) throw new Error(`Lighthouse measured ${runs.length} of ${RUNS} runs on ${route} in ${RUNS + RETRIES} tries`);
    results.push(counted);
    console.info(
      `${route}: ${CATEGORIES.map((c) => `${c} ${counted.scores[c]}`).join(', ')}; LCP ${Math.round(counted.lcpMs)} ms, TBT ${Math.round(counted.tbtMs)} ms (from CPU time ${Math.round(counted.cpuTbtMs)} ms, performance ${counted.cpuPerformance}; main thread stretched ${counted.stretch.toFixed(1)}×), CLS ${counted.cls.toFixed(3)}, JS ${counted.jsBytes} B; host index ${Math.round(counted.benchmarkIndex)}, CPU ${counted.cpuSlowdown.toFixed(1)}×` +
        (counted.failing.length ? `\n  below 1: ${counted.failing.join('\n  ')}` : ''),
    );
    for (const category of CATEGORIES) {
      const [score, floor] = category === 'performance' ? [performanceOf(counted), MIN_PERFORMANCE] : [counted.scores[category], MIN_SCORE];
      expect(score, `${route} ${category} (stretch ${counted.stretch.toFixed(1)}×)\n${counted.failing.join('\n')}`).toBeGreaterThanOrEqual(
        floor,
      );
    }
    expect(counted.cls, `${route} CLS`).toBeLessThanOrEqual(MAX_CLS);
    expect(counted.jsBytes, counted.scripts.join('\n')).toBeLessThanOrEqual(JS_BUDGET[route]);
    expect(counted.scripts.filter((s) => PRIVATE_CHUNK.test(s))).toEqual([]);
  });
}
