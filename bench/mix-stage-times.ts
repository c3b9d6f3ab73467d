/**
 * Stage times of the mixdown in Node on the bench's material (mono vocal, stereo instrumental):
 *   npx tsx bench/mix-stage-times.ts [seconds=240] [runs=3]
 * The same TypeScript the mix worker runs; `node --cpu-prof` on this script gives the functions behind them.
 * Also prints a checksum of the output, so a faster render can be checked for the very same samples.
 */
import { createHash } from 'node:crypto';
import { musicLike, voiceLike } from '../e2e/audio-harness-mix/harness-signals';
import { renderMix } from '../src/audio/render/mix-render';
import type { MixStage } from '../src/audio/render/mix-stages';

const seconds = Number(process.argv[2] ?? 240);
const runs = Number(process.argv[3] ?? 3);
const SR = 44_100;
const vocals = { channels: [voiceLike(seconds, SR)[0]!], sampleRate: SR };
const instrumental = { channels: musicLike(seconds, SR, 2, 3), sampleRate: SR };
const length = Math.max(60 * SR, instrumental.channels[0]!.length);
const clip = (trackType: 'vocals' | 'instrumental', frames: number) => ({
  id: `${trackType}-clip`,
  trackType,
  sourceStart: 0,
  sourceEnd: frames,
  position: 0,
});
const clips = [clip('vocals', vocals.channels[0]!.length), clip('instrumental', length)];

for (let r = 0; r < runs; r++) {
  const times = new Map<MixStage, number>();
  let stage: MixStage | null = null;
  let since = performance.now();
  const start = since;
  const result = await renderMix(
    { vocals, instrumental, clips, sampleRate: SR, length },
    { vocalShare: 50, outputVolume: 100 },
    {
      onProgress: (p) => {
        if (p.stage === stage) return;
        const now = performance.now();
        if (stage) times.set(stage, now - since);
        stage = p.stage;
        since = now;
      },
    },
  );
  const end = performance.now();
  if (stage) times.set(stage, end - since);
  const hash = createHash('sha256');
  for (const ch of result.channels) hash.update(new Uint8Array(ch.buffer, ch.byteOffset, ch.byteLength));
  console.log(
    `total ${(end - start).toFixed(0)} ms: ${[...times].map(([s, ms]) => `${s} ${ms.toFixed(0)}`).join(', ')}; ` +
      `output ${hash.digest('hex').slice(0, 16)}`,
  );
}
