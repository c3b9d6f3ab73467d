/**
 * Issue 28 item 3 (decision 216): Loud on the same mix arriving at -23 and at -12 LUFS. The adaptive chain's
 * compressors are relative to the band's own level, so both masters should come out alike: LRA within
 * 0.5 LU and PLR within 1 dB (ffmpeg ebur128), the limiter working alike on both. (The "limiter
 * under 6 dB at its deepest" is not reached: on this track Loud's limiter reduces by 10.2 dB at either level,
 * because the PLR must fall from 15.9 to 8 dB and the compressors take little of it — decision 216.)
 * Real produced music (asc-music machine_wars, 40 s from 0:30; skipped where not installed).
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../shared/mastering';
import { decodeTake } from './genre-takes.test-helper';
import { measureLoudness } from './loudness';
import { renderMaster } from './mastering-chain';
import { ffmpegAvailable, ffmpegEbur128 } from './node-tools.test-helper';

const RATE = 44100;
const immediate = () => Promise.resolve();

describe('gain staging: Loud at -23 and -12 LUFS in (issue 28)', { timeout: 600_000 }, async () => {
  const tools = await ffmpegAvailable();
  it.skipIf(!tools)('the masters match in LRA and PLR; the limiter works alike', async () => {
    const source = await decodeTake('/usr/share/games/asc/music/machine_wars.mp3', RATE, '');
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
        limiter: report.limiterMinGainDb,
      });
    }
    console.log(
      rows
        .map(
          (r) =>
            `[staging] in ${r.target} LUFS: out ${r.lufs} LUFS, LRA ${r.lra} LU, PLR ${r.plr.toFixed(1)} dB, limiter ${r.limiter.toFixed(2)} dB`,
        )
        .join('\n'),
    );
    const [quiet, hot] = rows as [(typeof rows)[0], (typeof rows)[0]];
    expect(Math.abs(quiet.lra - hot.lra)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(quiet.plr - hot.plr)).toBeLessThanOrEqual(1);
    expect(Math.abs(quiet.limiter - hot.limiter)).toBeLessThanOrEqual(0.5);
  });
});
