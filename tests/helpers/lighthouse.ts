import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { Audit } from 'lighthouse';
import { CHROMIUM_PATH, CHROMIUM_FLAGS } from './browser.js';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export type PageScore = {
  path: string;
  scores: Record<Category, number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Compressed bytes of JavaScript the page transferred. */
  jsBytes: number;
  /** Every script the page loaded (path only). */
  scripts: string[];
  /** Audits below a full score, for the failure message. */
  failing: string[];
  /** The host's CPU benchmark index Lighthouse measured at the start of this run. */
  benchmarkIndex: number;
  /** The CPU slowdown this run simulated. */
  cpuSlowdown: number;
  /**
   * How much the host stretched the page's main thread: the median of wall over CPU time of its tasks (about
   * 1 on an idle host; 3 when other processes take two thirds of the core). See hostStretch.
   */
  stretch: number;
  /** Total Blocking Time from the main thread's CPU time (each task's CPU time × 4, less 50 ms, after FCP). */
  cpuTbtMs: number;
  /** The performance score with TBT taken from CPU time instead of wall time; the same as `scores.performance` on an idle host. */
  cpuPerformance: number;
};

type TraceEvent = { name: string; ph?: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: any };

/**
 * Lantern (Lighthouse's simulation) multiplies the wall time of every main-thread task it observed by the
 * CPU slowdown. On a shared host a task's wall time also holds the time other processes had the core: at a
 * load average of 15 on 2 cores a 5 ms slice of React's hydration is observed at 20-60 ms, and the
 * simulated phone then blocks for 80-240 ms. The trace has each task's CPU time too (`tdur`), which the
 * host's load does not stretch. This reads the page's main thread after the first contentful paint:
 * the stretch (the median of wall over CPU time of tasks that ran at least 2 ms of CPU: a median, so the
 * few tasks that wait for the compositor or the GPU process do not count as load; or, when larger, the
 * wall over CPU time of the tasks that block at this slowdown, taken together), and the Total Blocking
 * Time the same tasks give from their CPU time. CPU time leaves out a task's waits for other processes,
 * which are part of real blocking; so it counts only on a stretched host.
 */
export function hostStretch(events: TraceEvent[], cpuSlowdown: number): { stretch: number; cpuTbtMs: number } {
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const tasksOf = (t: TraceEvent) => events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.name === 'RunTask' && e.ph === 'X');
  const main = mains.map(tasksOf).sort((a, b) => b.length - a.length)[0] ?? [];
  const fcp = events.find((e) => e.name === 'firstContentfulPaint');
  const ratios: number[] = [];
  let cpuTbtMs = 0;
  let blockingWallMs = 0;
  let blockingCpuMs = 0;
  for (const task of main) {
    if (!fcp || task.ts < fcp.ts) continue;
    const cpuMs = (task.tdur ?? 0) / 1000;
    const wallMs = (task.dur ?? 0) / 1000;
    cpuTbtMs += Math.max(0, cpuMs * cpuSlowdown - 50);
    if (cpuMs >= 2) ratios.push(wallMs / cpuMs);
    if (wallMs * cpuSlowdown > 50) {
      blockingWallMs += wallMs;
      blockingCpuMs += cpuMs;
    }
  }
  ratios.sort((a, b) => a - b);
  const median = ratios.length ? (ratios[Math.floor(ratios.length / 2)] ?? 1) : 1;
  // The tasks that make the blocking time, taken together: in CI, with the other projects' workers on
  // the same 2 cores, the pages' few long tasks were observed at 400-700 ms of blocking from 0-22 ms of
  // CPU while the median task was stretched only 1.1x (a task waiting for a starved compile thread).
  const blocking = blockingCpuMs > 0 ? blockingWallMs / blockingCpuMs : 1;
  return { stretch: Math.max(median, blocking), cpuTbtMs };
}

/**
 * Lighthouse's mobile preset simulates its target phone by multiplying the main-thread work it
 * observes by 4, a factor chosen for a fast desktop host (benchmark index around 1,000). Chrome's own
 * CPU calibration puts that low-to-mid-range phone at an index of about 264. On a host that is busy
 * (CI shares its cores) the index falls, and the same 4× then simulates a far slower phone: Total
 * Blocking Time swings by seconds between runs. So the slowdown is the host's measured index over
 * the phone's, never more than Lighthouse's 4× and never less than 1×: on a quiet host this is
 * Lighthouse's default, on a busy one it still simulates the same phone.
 */
const TARGET_PHONE_INDEX = 264;
const DEFAULT_CPU_SLOWDOWN = 4;
export function cpuSlowdownFor(hostBenchmarkIndex: number | undefined): number {
  if (!hostBenchmarkIndex || !Number.isFinite(hostBenchmarkIndex)) return DEFAULT_CPU_SLOWDOWN;
  return Math.min(DEFAULT_CPU_SLOWDOWN, Math.max(1, hostBenchmarkIndex / TARGET_PHONE_INDEX));
}

/** Chromium for Lighthouse (it needs a debugging port, so not the Playwright browser). */
export async function launchLighthouseChrome() {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: [...CHROMIUM_FLAGS], logLevel: 'error' });
}

/**
 * One Lighthouse 12 run with its default config (the mobile preset with simulated throttling),
 * except the CPU slowdown, which `cpuSlowdownFor` fits to the host (pass the last measured index).
 */
export async function auditPage(port: number, origin: string, path: string, hostBenchmarkIndex?: number): Promise<PageScore> {
  const cpuSlowdown = cpuSlowdownFor(hostBenchmarkIndex);
  const result = await lighthouse(`${origin}${path}`, {
    port,
    logLevel: 'error',
    output: 'json',
    onlyCategories: [...CATEGORIES],
    throttling: { cpuSlowdownMultiplier: cpuSlowdown },
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Record<
    Category,
    number
  >;
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests = ((lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string; transferSize?: number }[] })
    ?.items ?? []) as { url: string; resourceType?: string; transferSize?: number }[];
  const scripts = requests.filter((r) => r.resourceType === 'Script');
  const failing = CATEGORIES.flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((a) => a && a.score !== null && a.score < 1)
      .map((a) => `${c}: ${a!.id} ${a!.score} ${a!.displayValue ?? ''}`.trim()),
  );
  // CPU time is the host's unloaded speed, so it takes Lighthouse's own 4x, not the slowdown fitted to a busy host.
  const { stretch, cpuTbtMs } = hostStretch((result.artifacts.Trace?.traceEvents ?? []) as TraceEvent[], DEFAULT_CPU_SLOWDOWN);
  // The same weighted sum Lighthouse makes, with TBT scored on its own curve from the CPU-time figure.
  const performanceRefs = lhr.categories.performance?.auditRefs ?? [];
  const totalWeight = performanceRefs.reduce((sum, ref) => sum + ref.weight, 0);
  const cpuPerformance = Math.round(
    (100 *
      performanceRefs.reduce((sum, ref) => {
        const audit = lhr.audits[ref.id];
        const options = audit?.scoringOptions as { p10: number; median: number } | undefined;
        const score = ref.id === 'total-blocking-time' && options ? Audit.computeLogNormalScore(options, cpuTbtMs) : (audit?.score ?? 0);
        return sum + ref.weight * score;
      }, 0)) /
      (totalWeight || 1),
  );
  return {
    path,
    scores,
    stretch,
    cpuTbtMs,
    cpuPerformance,
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    jsBytes: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    scripts: scripts.map((r) => new URL(r.url).pathname),
    failing,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    cpuSlowdown,
  };
}

const START = '<!-- lighthouse:start -->';
const END = '<!-- lighthouse:end -->';

/**
 * Writes the scores into docs/benchmarks.md between its Lighthouse markers,
 * leaving every other section (server figures) as it is.
 */
export function writeBenchmarks(file: string, pages: PageScore[], note: string) {
  const rows = pages.map(
    (p) =>
      `| ${p.path} | ${p.scores.performance} | ${p.scores.accessibility} | ${p.scores['best-practices']} | ${p.scores.seo} | ${(p.lcpMs / 1000).toFixed(2)} s | ${Math.round(p.tbtMs)} ms | ${p.cls.toFixed(3)} | ${(p.jsBytes / 1000).toFixed(1)} KB | ${Math.round(p.benchmarkIndex)} / ${p.cpuSlowdown.toFixed(1)}× | ${p.stretch.toFixed(1)}× / ${Math.round(p.cpuTbtMs)} ms / ${p.cpuPerformance} |`,
  );
  const section = [
    START,
    '## Web (Lighthouse)',
    '',
    note,
    '',
    '| page | performance | accessibility | best practices | SEO | LCP | TBT | CLS | JS transferred | host index / CPU slowdown | main thread stretch / TBT and performance from CPU time |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    END,
  ].join('\n');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next =
    start >= 0 && end > start
      ? `${current.slice(0, start)}${section}${current.slice(end + END.length)}`
      : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
