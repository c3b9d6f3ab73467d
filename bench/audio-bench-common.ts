/**
 * Shared by the mastering and meter benchmarks: generated tracks (the same deterministic "music" the page
 * generates), ffmpeg timing, the harness page in headless Chromium and a plain table.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { type MasteringHarness, startMasteringHarness } from '../e2e/audio-harness/harness-server';
import { chromiumLaunch } from '../playwright.config';
import { floatWav } from '../src/audio/dsp/node-tools.test-helper';
import { musicLike } from '../src/audio/dsp/test-signals';

export const RATE = 44100;
/** Track lengths in seconds: 4 and 10 minutes (BENCH_QUICK=1: 30 s only, for a smoke run). */
export const LENGTHS = process.env.BENCH_QUICK ? [30] : [240, 600];

export interface Tracks {
  dir: string;
  wav(seconds: number): string;
  cleanup(): void;
}

/** Writes each length's track as a 32-bit float stereo WAV for ffmpeg. */
export const writeTracks = (lengths: number[]): Tracks => {
  const dir = mkdtempSync(join(tmpdir(), 'audio-bench-'));
  const files = new Map<number, string>();
  for (const seconds of lengths) {
    const file = join(dir, `music-${seconds}s.wav`);
    writeFileSync(file, floatWav(musicLike({ seconds, sampleRate: RATE, seed: 1 }), RATE));
    files.set(seconds, file);
  }
  return { dir, wav: (s) => files.get(s)!, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
};

export const ffmpegAvailable = () => spawnSync('ffmpeg', ['-version']).status === 0;

/** Wall time of one ffmpeg run (single filter thread, as DESIGN.md prescribes) and its stderr. */
export const timeFfmpeg = (args: string[]): { ms: number; stderr: string } => {
  const start = performance.now();
  const run = spawnSync('ffmpeg', ['-nostats', '-hide_banner', '-filter_threads', '1', ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr.slice(-800)}`);
  return { ms, stderr: run.stderr };
};

export interface BenchPage {
  page: Page;
  close(): Promise<void>;
}

export const openHarness = async (): Promise<BenchPage> => {
  const harness: MasteringHarness = await startMasteringHarness();
  const browser: Browser = await chromium.launch(chromiumLaunch);
  const page = await browser.newPage();
  await page.goto(harness.url);
  await page.waitForSelector('body[data-state="ready"]', { state: 'attached' });
  return {
    page,
    close: async () => {
      await browser.close();
      await harness.close();
    },
  };
};

export const printTable = (headers: string[], rows: (string | number)[][]) => {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(cells[0]!));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of cells.slice(1)) console.log(line(r));
};

export const ms = (v: number) => `${Math.round(v)} ms`;
