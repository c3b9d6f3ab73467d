/**
 * The mastering screen end to end in headless Chromium, for 4- and 10-minute stereo 44.1 kHz tracks (issue 17):
 * - click to complete: from a click on 'Master Track' to the mastered state (waveform, numbers and 'Mastering
 *   Complete'), target <= 1.5 s at 4 minutes, beside the spec's own minimum of 4.2 s (six status steps of
 *   700 ms each, whatever the track's length);
 * - click to sound: with the original playing, from the click to the moment the live master's first samples
 *   reach the output (decision 142): its sources' start() call, plus the 30 ms they are scheduled ahead, plus
 *   the context's output latency; the level meter must then read sound from the live chain. Target <= 300 ms.
 *   The same rounds also time their click to complete, with the live chain playing beside the render.
 *
 *   npm run bench -- mastering-screen        (builds the app first)
 *   node --import tsx bench/mastering-screen.bench.ts [seconds ...]   (after `npm run build:app`)
 *
 * It starts the built app like scripts/e2e-server.mjs does, on its own port and data folder, signs up a
 * Pro user and masters with the Balanced preset, BENCH_RUNS rounds per length (default 5), each on a freshly
 * loaded page with the track loaded anew (as a user arrives: the workers start cold), the silent and the
 * listening click alternating which goes first. "main stall" is the longest main-thread task
 * (PerformanceObserver 'longtask') during the job; "while the file loads" the longest from choosing the file
 * to its numbers on the page (read, decode, analysis; decision 309). Verdicts are withheld when other
 * processes kept the cores over 50 % busy in the second before a round.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunch } from '../playwright.config';
import { synthTrack } from '../scripts/generate-demo-tracks';
import { encodeWav } from '../src/audio/codecs/wav-encoder';
import { printTable } from './audio-bench-common';
import {
  label,
  loadPerCore,
  MAX_LOAD_PER_CORE,
  printEnvironment,
  ROUNDS,
  type Spread,
  spread,
} from './paired-rounds';

const SECONDS = (() => {
  const given = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  return given.length ? given : [240, 600];
})();
const COMPLETE_TARGET_MS = 1500;
const SOUND_TARGET_MS = 300;
const SPEC_MINIMUM_MS = 6 * 700;
const PORT = process.env.BENCH_PORT ?? '4197';
const DATA = join(tmpdir(), `bench-mastering-${process.pid}`);
const BASE = `http://127.0.0.1:${PORT}`;

const startServer = async (): Promise<ChildProcess> => {
  const child = spawn(process.execPath, ['scripts/e2e-server.mjs'], {
    env: { ...process.env, E2E_PORT: PORT, E2E_DATA_DIR: DATA },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(`${BASE}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill('SIGTERM');
  throw new Error('the app did not start (run `npm run build:app` first)');
};

interface Job {
  /** Click to the mastered state. */
  totalMs: number;
  /** Click to the live master heard (listening rounds only). */
  soundMs?: number;
  steps: { text: string; at: number }[];
  stallMs: number;
}

/** A source started on the page's (real-time) AudioContext: when, and how long until it sounds. */
interface SourceStart {
  /** performance.now() of the start() call. */
  at: number;
  /** ms from the call to the frame it was scheduled for (the player starts sources 30 ms ahead). */
  lead: number;
  /** The context's base and output latency, ms: from the rendered frame to the speaker. */
  latency: number;
}

/**
 * In the page, before the app loads: records every AudioBufferSourceNode started on a real-time context, so
 * click to sound is taken from when the live master's samples are scheduled to play, not from a meter that
 * may still hold the original's last 100 ms.
 */
const recordSourceStarts = () => {
  const starts: SourceStart[] = [];
  (globalThis as unknown as { sourceStarts: SourceStart[] }).sourceStarts = starts;
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (
    this: AudioBufferSourceNode,
    when = 0,
    ...rest: number[]
  ) {
    const ctx = this.context;
    if (ctx instanceof AudioContext)
      starts.push({
        at: performance.now(),
        lead: Math.max(0, when - ctx.currentTime) * 1000,
        latency: (ctx.baseLatency + (ctx.outputLatency || 0)) * 1000,
      });
    return start.call(this, when, ...rest);
  };
};

/**
 * In the page: clicks 'Master Track' and resolves when the mastered state shows. With `listening`, the
 * original is playing and the moment the live master is heard (the card says so and the meter reads sound)
 * is recorded too.
 */
const masterOnce = (listening: boolean) =>
  new Promise<Job>((resolve) => {
    const steps: { text: string; at: number }[] = [];
    let stallMs = 0;
    let soundMs: number | undefined;
    const longTasks = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) stallMs = Math.max(stallMs, e.duration);
    });
    longTasks.observe({ type: 'longtask', buffered: false });
    const card = document.querySelector('[data-testid="audio-source"]') as HTMLElement;
    const meter = document.querySelector('[data-testid="level-meter"]') as HTMLElement;
    const t0 = performance.now();
    const finish = (totalMs: number) => {
      observer.disconnect();
      longTasks.disconnect();
      resolve({ totalMs, soundMs, steps, stallMs });
    };
    const check = () => {
      const text = document.querySelector('[data-testid="master-status"]')?.textContent ?? '';
      if (text && steps.at(-1)?.text !== text) steps.push({ text, at: performance.now() - t0 });
      const mastered = document.querySelector('[data-testid="mastered-card"]')?.getAttribute('data-state');
      if (
        text.endsWith('mastering complete!') &&
        mastered === 'mastered' &&
        (!listening || soundMs !== undefined)
      )
        finish(performance.now() - t0);
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    if (listening) {
      // Checked every frame. The live master counts from its sources' start() call after the click, plus
      // the 30 ms they are scheduled ahead and the output latency; the meter must then read sound from it.
      const starts = (globalThis as unknown as { sourceStarts: SourceStart[] }).sourceStarts;
      let soundAt: number | undefined;
      const heard = () => {
        const first = starts.find((s) => s.at >= t0);
        if (soundAt === undefined && card.dataset.hearing === 'live-master' && first)
          soundAt = first.at - t0 + first.lead + first.latency;
        const now = performance.now() - t0;
        // The meter reads a 100 ms window every 100 ms: 250 ms after the first live samples it holds only them.
        if (soundAt !== undefined && now > soundAt + 250 && Number(meter.dataset.level ?? 0) > 2)
          soundMs = soundAt;
        else if (now < 30_000) return requestAnimationFrame(heard);
        else soundMs = Number.POSITIVE_INFINITY; // never heard live: the table shows it
        check();
      };
      requestAnimationFrame(heard);
    }
    (document.querySelector('[data-testid="master-track"]') as HTMLButtonElement).click();
  });

const dir = mkdtempSync(join(tmpdir(), 'bench-mastering-src-'));
const server = await startServer();
const browser = await chromium.launch({ ...chromiumLaunch, headless: true });
printEnvironment(browser.version(), ROUNDS);
const rows: (string | number)[][] = [];
const stepRows: string[][] = [];
try {
  const context = await browser.newContext({ baseURL: BASE });
  // tsx compiles this file keeping function names (esbuild's __name helper), and masterOnce runs in the page.
  await context.addInitScript('globalThis.__name = (f) => f;');
  await context.addInitScript(recordSourceStarts);
  const page = await context.newPage();
  const email = `bench.${Date.now()}@example.test`;
  const reg = await page.request.post('/api/auth/register', {
    data: { email, username: email.split('@')[0], password: 'correct-horse-42' },
  });
  if (reg.status() !== 201) throw new Error(`register failed: ${reg.status()} ${await reg.text()}`);
  // A Pro subscriber (paid on the local provider's checkout with its success card): a trial account's
  // screen is in preview mode, where the live master is not offered (decision 142).
  const session = await page.request.post('/api/create-checkout-session', {
    data: { lookup_key: 'pro_plan' },
  });
  const { url } = (await session.json()) as { url: string };
  const paid = await page.request.post(new URL(url).pathname, {
    form: { number: '4242424242424242', expiry: '12/34', cvc: '123' },
    maxRedirects: 0,
  });
  if (paid.status() !== 303) throw new Error(`checkout failed: ${paid.status()} ${await paid.text()}`);
  /** Loads the track; returns the longest main-thread task from choosing the file to its numbers shown. */
  const openTrack = async (file: string): Promise<number> => {
    await page.goto('/mastering');
    await page.evaluate(() => {
      const w = globalThis as unknown as { loadStall: number; loadObserver: PerformanceObserver };
      w.loadStall = 0;
      w.loadObserver = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.loadStall = Math.max(w.loadStall, e.duration);
      });
      w.loadObserver.observe({ type: 'longtask', buffered: false });
    });
    await page.getByLabel('Audio file').setInputFiles(file);
    // The number sits in a folded panel now (hidden until opened): wait for its text, not for it to show.
    await page
      .getByTestId('original-lufs')
      .filter({ hasNotText: '…' })
      .waitFor({ state: 'attached', timeout: 300_000 });
    const stall = await page.evaluate(() => {
      const w = globalThis as unknown as { loadStall: number; loadObserver: PerformanceObserver };
      w.loadObserver.disconnect();
      return w.loadStall;
    });
    await page.getByLabel('Preset').selectOption('balanced');
    return stall;
  };
  for (const seconds of SECONDS) {
    const file = join(dir, `track-${seconds}.wav`);
    writeFileSync(
      file,
      Buffer.concat(encodeWav(synthTrack('pop', seconds), 44_100, { dither: false, maxBytes: Infinity })),
    );
    const silent: Job[] = [];
    const listening: Job[] = [];
    const loads: number[] = [];
    const loadStalls: number[] = [];
    const silentRound = async () => {
      loadStalls.push(await openTrack(file));
      silent.push(await page.evaluate(masterOnce, false));
      await page.goto('about:blank'); // what runs after the job (playback, the master's analysis) stops here
    };
    const listeningRound = async () => {
      loadStalls.push(await openTrack(file));
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.waitForFunction(
        () =>
          Number((document.querySelector('[data-testid="level-meter"]') as HTMLElement)?.dataset.level ?? 0) >
          2,
        undefined,
        { timeout: 30_000 },
      );
      listening.push(await page.evaluate(masterOnce, true));
      await page.goto('about:blank');
    };
    for (let round = 0; round < ROUNDS; round++) {
      loads.push(await loadPerCore());
      if (round % 2 === 0) {
        await silentRound();
        await listeningRound();
      } else {
        await listeningRound();
        await silentRound();
      }
      const s = silent.at(-1)!;
      const l = listening.at(-1)!;
      console.log(
        `${label(seconds)}, round ${round + 1}: complete ${ms(s.totalMs)}; listening: sound ${ms(l.soundMs!)}, complete ${ms(l.totalMs)}`,
      );
    }
    const complete = spread(silent.map((j) => j.totalMs));
    const sound = spread(listening.map((j) => j.soundMs!));
    const judged = seconds === 240;
    rows.push([
      label(seconds),
      fmt(complete),
      judged ? absoluteVerdict(complete, COMPLETE_TARGET_MS, loads) : 'n/a (target is for 4 min)',
      fmt(sound),
      absoluteVerdict(sound, SOUND_TARGET_MS, loads),
      fmt(spread(listening.map((j) => j.totalMs))),
      `${(SPEC_MINIMUM_MS / 1000).toFixed(1)} s`,
      `${Math.round(Math.max(...[...silent, ...listening].map((j) => j.stallMs)))} ms`,
      `${Math.round(Math.max(...loadStalls))} ms`,
    ]);
    stepRows.push([label(seconds), medianSteps(silent)]);
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
  setTimeout(() => rmSync(DATA, { recursive: true, force: true }), 2_000).unref();
}

function ms(v: number): string {
  return `${Math.round(v)} ms`;
}
function fmt(s: Spread): string {
  return `${Math.round(s.min)} / ${Math.round(s.median)} / ${Math.round(s.max)}`;
}
/** An absolute target (no reference to pair with): judged on the median, withheld on a busy machine. */
function absoluteVerdict(s: Spread, targetMs: number, loads: number[]): string {
  const busy = loads.filter((l) => l > MAX_LOAD_PER_CORE);
  if (busy.length)
    return `withheld: cores ${Math.round(100 * Math.max(...busy))} % busy before ${busy.length} of ${loads.length} rounds`;
  return `${s.median <= targetMs ? 'meets' : 'misses'} <= ${targetMs} ms (cores <= ${Math.round(100 * Math.max(...loads))} % busy before rounds)`;
}
/** When the screen showed each status line, median over the silent rounds (the spec's steps in order). */
function medianSteps(jobs: Job[]): string {
  const texts = jobs[0]?.steps.map((s) => s.text) ?? [];
  return texts
    .map((text) => {
      const at = jobs.map((j) => j.steps.find((s) => s.text === text)?.at).filter((v) => v !== undefined);
      return `${text.replace('...', '').slice(0, 22)} ${(spread(at).median / 1000).toFixed(2)}`;
    })
    .join(' | ');
}

console.log(
  '\nMaster Track on the mastering screen, headless Chromium, Balanced preset, stereo 44.1 kHz; ms min / median / max',
);
printTable(
  [
    'track',
    'click to complete ms',
    'verdict (median, target <= 1.5 s at 4 min)',
    'click to sound, original playing ms',
    'verdict (median, target <= 300 ms)',
    'click to complete while listening ms',
    'spec minimum',
    'main stall',
    'main stall while the file loads',
  ],
  rows,
);
console.log('\nWhen each status line showed (s from the click, medians of the silent rounds)');
printTable(['track', 'steps'], stepRows);
