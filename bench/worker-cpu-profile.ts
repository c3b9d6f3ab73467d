/**
 * Where a bench job's time goes, thread by thread, from Chromium's own CPU profiler (DevTools protocol
 * tracing with the V8 sampling profiler category, which covers the page and its workers):
 *   npx tsx bench/worker-cpu-profile.ts wav 240
 *   npx tsx bench/worker-cpu-profile.ts mixdown 240
 *   npx tsx bench/worker-cpu-profile.ts master 240        (the mastering render on one worker)
 *   npx tsx bench/worker-cpu-profile.ts master-pair 240   (on two workers, analysis from load: the screen's)
 * Runs the job once cold (as the benches do) and prints, for each thread that ran JavaScript, the functions
 * with the most self time. Not a timed figure: sampling at 100 µs slows the job a little.
 * PROFILE_TIMELINE=<ms> also prints, per thread, each window of that many ms of the job's run: the time busy in
 * JavaScript or WebAssembly, the time waiting on the other worker (Atomics.wait under `#waitUntil` or a
 * `wait`), and the busiest function, from the first window any thread was busy in (which halves waited when).
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
const TIMELINE_MS = Number(process.env.PROFILE_TIMELINE ?? 0);

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
  ts?: number;
  args?: {
    name?: string;
    data?: {
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
      startTime?: number;
    };
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

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);
const isWait = (name: string) => name === '#waitUntil' || name === 'wait';

/** Per thread and window: busy ms, waiting ms and the busiest function (see PROFILE_TIMELINE above). */
const printTimeline = (
  threads: {
    thread: string;
    nodes: Map<number, ProfileNode>;
    timed: { node: number; at: number; us: number }[];
  }[],
) => {
  const nameOf = (t: (typeof threads)[number], id: number) => t.nodes.get(id)?.callFrame.functionName || '?';
  const busy = threads.flatMap((t) => t.timed.filter((s) => !IDLE.has(nameOf(t, s.node))).map((s) => s.at));
  if (busy.length === 0) return;
  const origin = Math.min(...busy);
  const window = TIMELINE_MS * 1000;
  for (const t of threads) {
    const rows = new Map<number, { busy: number; wait: number; by: Map<string, number> }>();
    for (const s of t.timed) {
      if (s.at < origin) continue;
      const name = nameOf(t, s.node);
      if (IDLE.has(name)) continue;
      const k = Math.floor((s.at - origin) / window);
      const row = rows.get(k) ?? { busy: 0, wait: 0, by: new Map() };
      if (isWait(name)) row.wait += s.us;
      else {
        row.busy += s.us;
        row.by.set(name, (row.by.get(name) ?? 0) + s.us);
      }
      rows.set(k, row);
    }
    const total = [...rows.values()].reduce((s, r) => s + r.busy, 0);
    if (total < 5000) continue;
    console.log(`\ntimeline of ${t.thread} (windows of ${TIMELINE_MS} ms from the first busy sample)`);
    for (const [k, r] of [...rows].sort((a, b) => a[0] - b[0])) {
      const top = [...r.by].sort((a, b) => b[1] - a[1])[0];
      console.log(
        `  ${String(k * TIMELINE_MS).padStart(6)} ms  busy ${(r.busy / 1000).toFixed(0).padStart(4)}  wait ${(r.wait / 1000).toFixed(0).padStart(4)}  ${top ? `${top[0]} ${(top[1] / 1000).toFixed(0)}` : ''}`,
      );
    }
  }
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
    {
      thread: string;
      nodes: Map<number, ProfileNode>;
      self: Map<number, number>;
      /** Each sample's node and time (µs, trace clock) and its duration, for the timeline. */
      timed: { node: number; at: number; us: number }[];
      clock: number;
    }
  >();
  // A profile's start time (trace clock) comes in its 'Profile' event; chunks then count from there.
  const startTimes = new Map<string, number>();
  for (const e of traceEvents)
    if (e.name === 'Profile' && e.id)
      startTimes.set(`${e.pid}:${e.id}`, e.args?.data?.startTime ?? e.ts ?? 0);
  for (const e of traceEvents) {
    if (e.name !== 'ProfileChunk' || !e.id) continue;
    const key = `${e.pid}:${e.id}`;
    let p = profiles.get(key);
    if (!p) {
      p = {
        thread: threadNames.get(`${e.pid}:${e.tid}`) ?? `tid ${e.tid}`,
        nodes: new Map(),
        self: new Map(),
        timed: [],
        clock: startTimes.get(key) ?? 0,
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
      p.clock += deltas[i] ?? 0;
      p.self.set(samples[i]!, (p.self.get(samples[i]!) ?? 0) + dt);
      if (TIMELINE_MS > 0) p.timed.push({ node: samples[i]!, at: p.clock, us: dt });
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
  if (TIMELINE_MS > 0) printTimeline([...profiles.values()]);
} finally {
  await close();
}
