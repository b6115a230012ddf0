/**
 * The real server (createDeps + listen, as npm start runs it) in its own
 * process for scripts/bench.ts. Talks to the bench over IPC: it reports its
 * port, seeds the embedded database when asked (only this process may open
 * it), and answers memory and event-loop-delay questions.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startBenchApp } from './bench-app.js';
import { seedBench } from './seed.js';

type Request = { type: 'memory' | 'seed' | 'eld-reset' | 'eld'; id: number; seed?: Parameters<typeof seedBench>[1] };

const { handle, deps, server } = await startBenchApp();
const eld = monitorEventLoopDelay({ resolution: 10 });
eld.enable();

process.on('message', async (m: Request) => {
  const reply = (body: object) => process.send?.({ ...body, type: m.type, id: m.id });
  if (m.type === 'memory') {
    for (let i = 0; i < 3; i++) globalThis.gc?.();
    const u = process.memoryUsage();
    reply({ rss: u.rss, heap: u.heapUsed + u.external });
  } else if (m.type === 'seed' && m.seed) {
    reply({ data: await seedBench(deps.db, m.seed) });
  } else if (m.type === 'eld-reset') {
    eld.reset();
    reply({});
  } else if (m.type === 'eld') {
    reply({ p99: eld.percentile(99) / 1e6, max: eld.max / 1e6 });
  }
});
process.on('disconnect', () => {
  void server
    .close()
    .then(() => handle.close())
    .finally(() => process.exit(0));
});
process.send?.({ type: 'listening', port: server.port });
