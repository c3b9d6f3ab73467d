/**
 * Stage times of the mixdown in Node:
 *   npx tsx bench/mix-stage-times.ts [seconds=240] [runs=3]          (mono vocal, stereo instrumental)
 *   npx tsx bench/mix-stage-times.ts [seconds=240] [runs=3] chain    (issue 26's adaptive vocal chain, on
 *     the vocal-chain bench's material: the dirty take tiled to the length over its instrumental, genre pop)
 * The same TypeScript the mix worker runs; `node --cpu-prof` on this script gives the functions behind them.
 * Also prints the process's CPU time (the machines are shared: wall time says more about the neighbours) and
 * a checksum of the output (and each row's CPU time beside its wall time), so a faster render can be checked for the very same samples. With the chain, the
 * balance stage's cleanup and ride and the EQ stage's carve get rows of their own.
 */
import { createHash } from 'node:crypto';
import { musicLike, voiceLike } from '../e2e/audio-harness-mix/harness-signals';
import { analyseVocal } from '../src/audio/dsp/vocal/analyse-vocal';
import { dirtyTake } from '../src/audio/dsp/vocal/dirty-take.test-helper';
import { type MixRenderInput, type MixRenderSettings, renderMix } from '../src/audio/render/mix-render';
import type { MixProgress } from '../src/audio/render/mix-stages';

const seconds = Number(process.argv[2] ?? 240);
const runs = Number(process.argv[3] ?? 3);
const withChain = process.argv[4] === 'chain';
const SR = 44_100;

const tile = (x: Float32Array, n: number) => {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += x.length) out.set(x.subarray(0, Math.min(x.length, n - i)), i);
  return out;
};
const clip = (trackType: 'vocals' | 'instrumental', frames: number) => ({
  id: `${trackType}-clip`,
  trackType,
  sourceStart: 0,
  sourceEnd: frames,
  position: 0,
});

const material = async (): Promise<{ input: MixRenderInput; settings: MixRenderSettings }> => {
  if (!withChain) {
    const vocals = { channels: [voiceLike(seconds, SR)[0]!], sampleRate: SR };
    const instrumental = { channels: musicLike(seconds, SR, 2, 3), sampleRate: SR };
    const length = Math.max(60 * SR, instrumental.channels[0]!.length);
    return {
      input: {
        vocals,
        instrumental,
        clips: [clip('vocals', vocals.channels[0]!.length), clip('instrumental', length)],
        sampleRate: SR,
        length,
      },
      settings: { vocalShare: 50, outputVolume: 100 },
    };
  }
  const take = await dirtyTake(SR);
  if (!take) throw new Error('espeak-ng and ffmpeg are needed');
  const n = Math.round(seconds * SR);
  const vocal = tile(take.vocal, n);
  const start = performance.now();
  const vocalAnalysis = analyseVocal([vocal], SR, 'pop');
  console.log(`vocal analysis (made when the vocal loads) ${(performance.now() - start).toFixed(0)} ms`);
  return {
    input: {
      vocals: { channels: [vocal], sampleRate: SR },
      instrumental: { channels: take.instrumental.map((c) => tile(c, n)), sampleRate: SR },
      clips: [clip('vocals', n), clip('instrumental', n)],
      sampleRate: SR,
      length: n,
      tempoBpm: 100,
      vocalAnalysis,
    },
    settings: { vocalShare: 50, outputVolume: 100, genre: 'pop' },
  };
};

/** The row a progress report belongs to: the chain's parts of the balance and EQ stages apart. */
const rowOf = (p: MixProgress): string => {
  if (!withChain) return p.stage;
  if (p.stage === 'balance')
    return p.stageFraction < 0.6 ? 'balance' : p.stageFraction < 0.9 ? 'cleanup' : 'ride';
  if (p.stage === 'eq') return p.stageFraction <= 0.5 ? 'eq+de-ess' : 'carve';
  return p.stage;
};

const { input, settings } = await material();
for (let r = 0; r < runs; r++) {
  const times = new Map<string, number>();
  const cpus = new Map<string, number>();
  let row: string | null = null;
  let since = performance.now();
  let cpuSince = process.cpuUsage();
  const start = since;
  const cpuStart = process.cpuUsage();
  const note = (next: string | null) => {
    const now = performance.now();
    const used = process.cpuUsage(cpuSince);
    if (row) {
      times.set(row, (times.get(row) ?? 0) + now - since);
      cpus.set(row, (cpus.get(row) ?? 0) + (used.user + used.system) / 1000);
    }
    row = next;
    since = now;
    cpuSince = process.cpuUsage();
  };
  const result = await renderMix(input, settings, {
    onProgress: (p) => {
      const next = rowOf(p);
      if (next !== row) note(next);
    },
  });
  note(null);
  const end = performance.now();
  const cpu = process.cpuUsage(cpuStart);
  const hash = createHash('sha256');
  for (const ch of result.channels) hash.update(new Uint8Array(ch.buffer, ch.byteOffset, ch.byteLength));
  console.log(
    `total ${(end - start).toFixed(0)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms): ` +
      `${[...times].map(([s, ms]) => `${s} ${ms.toFixed(0)} (CPU ${cpus.get(s)!.toFixed(0)})`).join(', ')}; output ${hash.digest('hex').slice(0, 16)}`,
  );
}
