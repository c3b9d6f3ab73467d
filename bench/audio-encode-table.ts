/** Shared printing and reference-timing helpers of the audio encode/mix benchmarks. */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';

export interface BenchRow {
  job: string;
  track: string;
  oursMs: number;
  reference?: string;
  referenceMs?: number;
  target?: string;
  /** Longest gap between main-thread heartbeats during the job (wall time). */
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
    'ours ms',
    'reference',
    'ref ms',
    'ratio',
    'target',
    'main stall ms',
    'longest task cpu ms',
    'idle stall ms',
    'note',
  ];
  const lines = rows.map((r) => [
    r.job,
    r.track,
    r.oursMs ? r.oursMs.toFixed(0) : '-',
    r.reference ?? '-',
    r.referenceMs !== undefined ? r.referenceMs.toFixed(0) : '-',
    r.referenceMs && r.oursMs ? `${(r.oursMs / r.referenceMs).toFixed(2)}x` : '-',
    r.target ?? '-',
    r.stallMs !== undefined ? r.stallMs.toFixed(1) : '-',
    r.taskCpuMs !== undefined ? r.taskCpuMs.toFixed(1) : '-',
    r.idleStallMs !== undefined ? r.idleStallMs.toFixed(1) : '-',
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  console.log(`\n${title}`);
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores`,
  );
  console.log(header.map((h, i) => pad(h, widths[i]!)).join(' | '));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const l of lines) console.log(l.map((c, i) => pad(c, widths[i]!)).join(' | '));
};

import type { Browser, Page } from '@playwright/test';
import { longestMainThreadTask } from '../e2e/audio-harness-mix/harness-browser';

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
  job: 'mp3' | 'wav' | 'peaks' | 'mixdown',
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
