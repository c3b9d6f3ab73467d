/**
 * The mixdown's output limiter alone (limitInPlace, the `final` stage) on a 4-minute stereo mix-like signal,
 * pushed into the ceiling so the limiter works: CPU per run and a checksum of the output, to A/B a faster
 * limiter for the very same samples.
 *   npx tsx bench/limiter-chunk.ts [seconds=240] [runs=5]
 */
import { createHash } from 'node:crypto';
import { musicLike } from '../e2e/audio-harness-mix/harness-signals';
import { limitInPlace } from '../src/audio/render/mix-kernels';

const seconds = Number(process.argv[2] ?? 240);
const runs = Number(process.argv[3] ?? 5);
const SR = 44_100;
const source = musicLike(seconds, SR, 2, 3).map((ch) => ch.map((v) => v * 2.5));
for (let r = 0; r < runs; r++) {
  const channels = source.map((ch) => ch.slice());
  const gains = new Float32Array(channels[0]!.length);
  const cpu = process.cpuUsage();
  await limitInPlace(channels, SR, -1, async () => {}, 65_536, gains);
  const used = process.cpuUsage(cpu);
  const hash = createHash('sha256');
  for (const ch of [...channels, gains]) hash.update(new Uint8Array(ch.buffer));
  console.log(
    `limiter CPU ${((used.user + used.system) / 1000).toFixed(0)} ms; output ${hash.digest('hex').slice(0, 16)}`,
  );
}
