/**
 * Paired rounds for the audio benchmarks: ours and the reference run back to back in every round, in
 * alternating order (so neither side always gets the warmer cache or the quieter second), and every figure is
 * reported as min / median / max over the rounds, the ratio as the spread of the per-round ratios.
 *
 * The machines are shared: before every round, with the bench itself idle, the machine's CPU use is sampled
 * for a second (/proc/stat); when other processes kept more than MAX_LOAD_PER_CORE of each core busy the
 * verdict against the target is withheld (the figures are still printed). The 1-minute load average is not
 * used for this: the bench's own previous round keeps it above 0.5 per core on 2 cores (decision 140).
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/** Above this 1-minute load average per core before a round, its figure says more about the neighbours. */
export const MAX_LOAD_PER_CORE = 0.5;
export const ROUNDS = Number(process.env.BENCH_RUNS ?? 5);

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export interface Paired {
  ours: Spread;
  reference: Spread;
  /** Spread of ours/reference taken round by round. */
  ratio: Spread;
  /** Busy share of each core (0..1) from other processes in the second before each round. */
  loads: number[];
}

export const spread = (values: number[]): Spread => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  const median = s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  return { min: s[0]!, median, max: s[s.length - 1]! };
};

/** Busy and total jiffies of all cores (the first line of /proc/stat); undefined where there is none. */
const cpuTimes = (): { busy: number; total: number } | undefined => {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
};

/**
 * The busy share of each core over one second while the bench waits: what the neighbours use. Without
 * /proc/stat, the 1-minute load average per core.
 */
export const loadPerCore = async (): Promise<number> => {
  const before = cpuTimes();
  if (!before) return loadavg()[0]! / cpus().length;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = cpuTimes()!;
  return (after.busy - before.busy) / Math.max(1, after.total - before.total);
};

/**
 * Runs `rounds` paired rounds; even rounds run ours first, odd rounds the reference first. Each side returns
 * its wall time in ms (and may record more figures of its own in its closure).
 */
export async function pairedRounds(
  ours: () => Promise<number> | number,
  reference: () => Promise<number> | number,
  rounds = ROUNDS,
): Promise<Paired> {
  const o: number[] = [];
  const r: number[] = [];
  const loads: number[] = [];
  for (let i = 0; i < rounds; i++) {
    loads.push(await loadPerCore());
    if (i % 2 === 0) {
      o.push(await ours());
      r.push(await reference());
    } else {
      r.push(await reference());
      o.push(await ours());
    }
  }
  return { ours: spread(o), reference: spread(r), ratio: spread(o.map((v, i) => v / r[i]!)), loads };
}

/** A track length as the tables print it: '4 min', '30 s'. */
export const label = (seconds: number) => (seconds >= 60 ? `${seconds / 60} min` : `${seconds} s`);

export const fmtMs = (s: Spread) => `${Math.round(s.min)} / ${Math.round(s.median)} / ${Math.round(s.max)}`;
export const fmtRatio = (s: Spread) => `${s.min.toFixed(2)} / ${s.median.toFixed(2)} / ${s.max.toFixed(2)}x`;

/**
 * "meets" or "misses" the target by the median per-round ratio, or "withheld" when any round started on a
 * loaded machine. `target` is the largest acceptable ratio.
 */
export function verdict(p: Paired, target: number): string {
  const busy = p.loads.filter((l) => l > MAX_LOAD_PER_CORE);
  if (busy.length)
    return `withheld: cores ${Math.round(100 * Math.max(...busy))} % busy before ${busy.length} of ${p.loads.length} rounds (> ${100 * MAX_LOAD_PER_CORE} %)`;
  const quiet = `cores <= ${Math.round(100 * Math.max(...p.loads))} % busy before rounds`;
  return `${p.ratio.median <= target ? 'meets' : 'misses'} <= ${target}x (${quiet})`;
}

/** The facts a reader needs to reproduce a figure: browser, Node, cores, load, rounds. */
export function printEnvironment(chromiumVersion: string | undefined, rounds = ROUNDS): void {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `Chromium ${chromiumVersion ?? 'n/a'}, Node ${process.versions.node}, ${cpus().length} cores, load average ${load}; ` +
      `${rounds} paired rounds, order alternating; figures min / median / max; ratio = spread of per-round ratios; ` +
      `verdicts withheld when other processes kept the cores over ${100 * MAX_LOAD_PER_CORE} % busy in the second before a round.`,
  );
}
