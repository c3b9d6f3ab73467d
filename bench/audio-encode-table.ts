/** Shared printing and reference-timing helpers of the audio encode/mix benchmarks. */
import { spawnSync } from 'node:child_process';

export interface BenchRow {
  job: string;
  track: string;
  /** Our wall times over the rounds. */
  ours: Spread;
  reference?: string;
  /** Present when a reference ran in the same rounds. */
  paired?: Paired;
  /** The largest acceptable median ratio, for the verdict. */
  target?: number;
  /** A target that is not a ratio (e.g. the stall), printed as is. */
  targetText?: string;
  /** Longest gap between main-thread heartbeats during the job (wall time), over the rounds. */
  stallMs?: number;
  /** Longest main-thread task during the job in the thread's CPU time (Chromium trace): our own blocking. */
  taskCpuMs?: number;
  /** The heartbeat measurement over an idle page for as long as the job took (what the machine alone causes). */
  idleStallMs?: number;
  note?: string;
}

/** Wall time of a command, failing loudly when it does. */
export const timeCommand = (command: string, args: string[]): number => {
  const start = performance.now();
  const r = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${command} failed: ${r.stderr?.toString().slice(0, 500)}`);
  return ms;
};

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

export const printTable = (title: string, rows: BenchRow[]): void => {
  const header = [
    'job',
    'track',
    'ours ms (min / median / max)',
    'reference',
    'ref ms',
    'ratio per round',
    'verdict',
    'main stall ms',
    'longest task cpu ms',
    'idle stall ms',
    'note',
  ];
  const lines = rows.map((r) => [
    r.job,
    r.track,
    r.ours.max > 0 ? fmtMs(r.ours) : '-',
    r.reference ?? '-',
    r.paired ? fmtMs(r.paired.reference) : '-',
    r.paired ? fmtRatio(r.paired.ratio) : '-',
    r.paired && r.target !== undefined ? verdict(r.paired, r.target) : (r.targetText ?? '-'),
    r.stallMs !== undefined ? r.stallMs.toFixed(1) : '-',
    r.taskCpuMs !== undefined ? r.taskCpuMs.toFixed(1) : '-',
    r.idleStallMs !== undefined ? r.idleStallMs.toFixed(1) : '-',
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  console.log(`\n${title}`);
  console.log(header.map((h, i) => pad(h, widths[i]!)).join(' | '));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const l of lines) console.log(l.map((c, i) => pad(c, widths[i]!)).join(' | '));
};

import type { Browser, Page } from '@playwright/test';
import { longestMainThreadTask } from '../e2e/audio-harness-mix/harness-browser';
import {
  fmtMs,
  fmtRatio,
  type Paired,
  pairedRounds,
  ROUNDS,
  type Spread,
  spread,
  verdict,
} from './paired-rounds';

/** The jobs the mix harness page runs (window.mixBench). */
export type BenchJob = 'mp3' | 'wav' | 'peaks' | 'mixdown';

export interface JobFigures {
  ms: number;
  bytes: number;
  error: string | null;
  stallMs: number;
  taskCpuMs: number;
  idleStallMs: number;
}

/** Prepares a job's input, runs it traced, then takes the idle baseline for as long as the job took. */
export const runJob = async (
  browser: Browser,
  page: Page,
  job: BenchJob,
  seconds: number,
): Promise<JobFigures> => {
  await page.evaluate(([j, s]) => window.mixBench.prepare(j, s), [job, seconds] as const);
  const traced = await longestMainThreadTask(browser, page, () => page.evaluate(() => window.mixBench.run()));
  const r = traced.result;
  const idleStallMs = r.error
    ? 0
    : await page.evaluate((t) => window.mixBench.idleStall(t), Math.min(r.ms, 10_000));
  return { ...r, stallMs: r.longestMs, taskCpuMs: traced.cpuMs, idleStallMs };
};

export type JobRow = Pick<BenchRow, 'ours' | 'paired' | 'stallMs' | 'taskCpuMs' | 'idleStallMs'> & {
  last: JobFigures;
};

/**
 * Runs a job for ROUNDS rounds, paired with `reference` (alternating order) when one is given; stalls are
 * the worst over the rounds. A job the page refuses (error) runs once.
 */
export const runJobRounds = async (
  browser: Browser,
  page: Page,
  job: BenchJob,
  seconds: number,
  reference?: () => number,
): Promise<JobRow> => {
  const runs: JobFigures[] = [];
  const refused = new Error('refused');
  const ours = async () => {
    const r = await runJob(browser, page, job, seconds);
    runs.push(r);
    if (r.error) throw refused;
    return r.ms;
  };
  let paired: Paired | undefined;
  try {
    if (reference) paired = await pairedRounds(ours, reference);
    else for (let i = 0; i < ROUNDS; i++) await ours();
  } catch (err) {
    if (err !== refused) throw err;
    return { ours: spread([runs[0]!.ms]), last: runs[0]! };
  }
  return {
    ours: spread(runs.map((r) => r.ms)),
    paired,
    stallMs: Math.max(...runs.map((r) => r.stallMs)),
    taskCpuMs: Math.max(...runs.map((r) => r.taskCpuMs)),
    idleStallMs: Math.max(...runs.map((r) => r.idleStallMs)),
    last: runs[runs.length - 1]!,
  };
};
