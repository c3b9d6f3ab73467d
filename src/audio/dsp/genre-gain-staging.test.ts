/**
 * Issue 28 item 3 (decisions 216, 265): Loud on the same mix arriving at -23 and at -12 LUFS. The adaptive
 * chain's compressors are relative to the band's own level and the peak compressor's threshold sits over
 * the ceiling after the loudness gain, so both masters should come out alike: LRA within 0.5 LU and PLR
 * within 1 dB (ffmpeg ebur128), and the limiter only catching peaks: under 6 dB at its deepest on both
 * (it was 10.2 dB before the peak compressor), with Loud's -9 LUFS and -1 dBTP met (ffmpeg).
 * Real produced music (asc-music machine_wars, 40 s from 0:30; skipped where not installed) and generated
 * pop (test-signals' musicLike, whose kicks peak 17.7 dB over its loudness).
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../shared/mastering';
import { decodeTake } from './genre-takes.test-helper';
import { measureLoudness } from './loudness';
import { renderMaster } from './mastering-chain';
import { ffmpegAvailable, ffmpegEbur128 } from './node-tools.test-helper';
import { musicLike } from './test-signals';

const RATE = 44100;
const immediate = () => Promise.resolve();

describe('gain staging: Loud at -23 and -12 LUFS in (issue 28)', { timeout: 600_000 }, async () => {
  const tools = await ffmpegAvailable();
  const sources: [string, () => Promise<Float32Array[] | null>][] = [
    ['machine_wars', () => decodeTake('/usr/share/games/asc/music/machine_wars.mp3', RATE, '')],
    ['generated pop', () => Promise.resolve(musicLike({ seconds: 40, seed: 1 }))],
  ];
  it.skipIf(!tools).each(sources)(
    '%s: the masters match in LRA and PLR; the limiter only catches peaks',
    async (name, load) => {
      const source = await load();
      if (!source) return;
      const lufs = measureLoudness(source, RATE, { truePeak: false }).integratedLufs;
      const rows = [];
      for (const target of [-23, -12]) {
        const g = 10 ** ((target - lufs) / 20);
        const channels = source.map((c) => c.map((v) => v * g));
        const report = await renderMaster(
          channels,
          RATE,
          { settings: PRESETS.loud.settings, targetLufs: PRESETS.loud.targetLufs, tone: { preset: 'loud' } },
          { yieldFn: immediate },
        );
        const m = await ffmpegEbur128(channels, RATE);
        rows.push({
          target,
          lra: m.range,
          plr: m.truePeak - m.integrated,
          lufs: m.integrated,
          truePeak: m.truePeak,
          limiter: report.limiterMinGainDb,
          peakCompressor: report.peakCompressorMinGainDb,
        });
      }
      console.log(
        rows
          .map(
            (r) =>
              `[staging] ${name} in ${r.target} LUFS: out ${r.lufs} LUFS, true peak ${r.truePeak} dBTP, LRA ${r.lra} LU, PLR ${r.plr.toFixed(1)} dB, peak compressor ${r.peakCompressor.toFixed(2)} dB, limiter ${r.limiter.toFixed(2)} dB`,
          )
          .join('\n'),
      );
      const [quiet, hot] = rows as [(typeof rows)[0], (typeof rows)[0]];
      expect(Math.abs(quiet.lra - hot.lra)).toBeLessThanOrEqual(0.5);
      expect(Math.abs(quiet.plr - hot.plr)).toBeLessThanOrEqual(1);
      expect(Math.abs(quiet.limiter - hot.limiter)).toBeLessThanOrEqual(0.5);
      for (const r of rows) {
        // The limiter catches peaks only; Loud's loudness and ceiling still hold (ffmpeg's meter).
        expect(r.limiter, `${name} from ${r.target} LUFS`).toBeGreaterThan(-6);
        expect(Math.abs(r.lufs - PRESETS.loud.targetLufs)).toBeLessThanOrEqual(0.2);
        expect(r.truePeak).toBeLessThanOrEqual(-1 + 0.05);
      }
    },
  );
});
