/**
 * Where a bench job's time goes, thread by thread, from Chromium's own CPU profiler (DevTools protocol
 * tracing with the V8 sampling profiler category, which covers the page and its workers):
 *   npx tsx bench/worker-cpu-profile.ts wav 240
 *   npx tsx bench/worker-cpu-profile.ts mixdown 240
 *   npx tsx bench/worker-cpu-profile.ts master 240        (the mastering render on one worker)
 *   npx tsx bench/worker-cpu-profile.ts master-pair 240   (on two workers, analysis from load: the screen's)
 * Runs the job once cold (as the benches do) and prints, for each thread that ran JavaScript, the functions
 * with the most self time. Not a timed figure: sampling at 100 µs slows the job a little.
 */
import type { Browser, Page } from '@playwright/test';
import { openHarness } from '../e2e/audio-harness-mix/harness-browser';
import { openHarness as openMasteringHarness } from './audio-bench-common';
import type { BenchJob } from './audio-encode-table';

const MASTER_JOBS = ['master', 'master-pair'] as const;
type MasterJob = (typeof MASTER_JOBS)[number];
const job = (process.argv[2] ?? 'wav') as BenchJob | MasterJob;
const isMaster = (j: string): j is MasterJob => (MASTER_JOBS as readonly string[]).includes(j);
const seconds = Number(process.argv[3] ?? 240);
const TOP = Number(process.env.PROFILE_TOP ?? 14);

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  parent?: number;
}
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  id?: string;
  args?: {
    name?: string;
    data?: { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] };
  };
}

const workerNames: Record<BenchJob, string[]> = {
  wav: ['encode-worker'],
  mp3: ['encode-worker'],
  peaks: ['peaks-worker'],
  mixdown: ['mix-worker'],
};
/** Opens the job's harness page; `run` does the job once and returns its summary line. */
const openJob = async (): Promise<{
  page: Page;
  browser: Browser;
  close(): Promise<void>;
  run(): Promise<string>;
}> => {
  if (isMaster(job)) {
    const bench = await openMasteringHarness();
    const page = bench.page;
    await page.evaluate((s) => window.audioHarness.prepare(s), seconds);
    const pair = job === 'master-pair';
    return {
      page,
      browser: page.context().browser()!,
      close: bench.close,
      run: async () => {
        const r = await page.evaluate(
          ([s, two]) => window.audioHarness.masterBench(s, 'balanced', true, two, two),
          [seconds, pair] as const,
        );
        const stages = Object.entries(r.stages)
          .map(([stage, at]) => `${stage} at ${Math.round(at)}`)
          .join(', ');
        return `${job} ${seconds} s: ${r.ms.toFixed(0)} ms wall (profiled); ${stages}`;
      },
    };
  }
  const { page, browser, close } = await openHarness(workerNames[job] as never);
  await page.evaluate(([j, s]) => window.mixBench.prepare(j, s), [job, seconds] as const);
  return {
    page,
    browser,
    close,
    run: async () => {
      const r = await page.evaluate(() => window.mixBench.run());
      return `${job} ${seconds} s: ${r.ms.toFixed(0)} ms wall (profiled), main stall ${r.longestMs.toFixed(1)} ms`;
    },
  };
};

const { page, browser, close, run } = await openJob();
try {
  await browser.startTracing(page, {
    categories: ['disabled-by-default-v8.cpu_profiler', 'v8.execute', 'toplevel'],
  });
  const summary = await run();
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: TraceEvent[];
  };
  console.log(summary);

  const threadNames = new Map<string, string>();
  for (const e of traceEvents)
    if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  // Each profile (one per thread) arrives as chunks carrying new nodes, sample node ids and time deltas (µs).
  const profiles = new Map<
    string,
    { thread: string; nodes: Map<number, ProfileNode>; self: Map<number, number> }
  >();
  for (const e of traceEvents) {
    if (e.name !== 'ProfileChunk' || !e.id) continue;
    const key = `${e.pid}:${e.id}`;
    let p = profiles.get(key);
    if (!p) {
      p = {
        thread: threadNames.get(`${e.pid}:${e.tid}`) ?? `tid ${e.tid}`,
        nodes: new Map(),
        self: new Map(),
      };
      profiles.set(key, p);
    }
    const data = e.args?.data;
    for (const n of data?.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    const samples = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    // A sample's time is the gap to the next one; the chunk's deltas give the gap before each sample.
    for (let i = 0; i < samples.length; i++) {
      const dt = deltas[i + 1] ?? deltas[i] ?? 0;
      p.self.set(samples[i]!, (p.self.get(samples[i]!) ?? 0) + dt);
    }
  }
  for (const p of profiles.values()) {
    const byFunction = new Map<string, number>();
    let total = 0;
    for (const [id, us] of p.self) {
      const f = p.nodes.get(id)?.callFrame;
      const file = f?.url?.split('/').pop() ?? '';
      const name = f
        ? `${f.functionName || '(anonymous)'} ${file}${file ? `:${(f.lineNumber ?? 0) + 1}` : ''}`
        : '?';
      byFunction.set(name, (byFunction.get(name) ?? 0) + us);
      total += us;
    }
    const busy = total - (byFunction.get('(idle) ') ?? 0) - (byFunction.get('(program) ') ?? 0);
    if (busy < 5000) continue;
    console.log(
      `\n${p.thread}: ${(total / 1000).toFixed(0)} ms sampled, ${(busy / 1000).toFixed(0)} ms in JS`,
    );
    for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP))
      console.log(`  ${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
  }
} finally {
  await close();
}
