/// <reference types="node" />
/**
 * Issue 28: every format at one loudness. Each preset's master of a real produced track (asc-music
 * machine_wars, 40 s from 0:30; skipped where not installed), limited for the coder (limitForLossy) and
 * encoded to MP3 320 without the old 0.5 dB turn-down, measured by ffmpeg after decoding: within 0.2 LU of
 * the float WAV of the same master, true peak at most -1 dBTP.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { PRESET_IDS, PRESETS } from '../../shared/mastering';
import { encodeMp3 } from '../codecs/mp3-encoder';
import { decodeTake } from './genre-takes.test-helper';
import { limitForLossy } from './lossy-headroom';
import { renderMaster } from './mastering-chain';
import { ffmpegAvailable, ffmpegEbur128, ffmpegEbur128OnFile } from './node-tools.test-helper';

const require = createRequire(import.meta.url);
const wasm = readFileSync(require.resolve('wasm-media-encoders/wasm/mp3'));
const RATE = 44100;
const immediate = () => Promise.resolve();
const TRACK = '/usr/share/games/asc/music/machine_wars.mp3';

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe('MP3 at the WAV loudness (issue 28, decision 217)', { timeout: 600_000 }, async () => {
  const tools = await ffmpegAvailable();
  for (const id of PRESET_IDS) {
    it.skipIf(!tools)(
      `${PRESETS[id].name}: MP3 within 0.2 LU of the WAV, true peak <= -1 dBTP decoded`,
      async () => {
        const source = await decodeTake(TRACK, RATE, '');
        if (!source) return;
        const preset = PRESETS[id];
        await renderMaster(
          source,
          RATE,
          { settings: preset.settings, targetLufs: preset.targetLufs, tone: { preset: id } },
          { yieldFn: immediate },
        );
        const wav = await ffmpegEbur128(source, RATE);
        const forCoder = source.map((c) => c.slice());
        const limited = await limitForLossy(forCoder, RATE, undefined, { yieldFn: immediate });
        const mp3 = await ffmpegEbur128OnFile(
          concat(await encodeMp3(forCoder, RATE, { wasm, headroomDb: 0 })),
        );
        const old = await ffmpegEbur128OnFile(concat(await encodeMp3(source, RATE, { wasm })));
        console.log(
          `[lossy] ${preset.name}: WAV ${wav.integrated} LUFS ${wav.truePeak} dBTP; MP3 ${mp3.integrated} LUFS ` +
            `${mp3.truePeak} dBTP (limiter ${limited.limiterMinGainDb.toFixed(2)} dB, gain ${limited.gainDb.toFixed(2)} dB); ` +
            `before: MP3 ${old.integrated} LUFS ${old.truePeak} dBTP`,
        );
        expect(Math.abs(mp3.integrated - wav.integrated)).toBeLessThanOrEqual(0.2);
        expect(mp3.truePeak).toBeLessThanOrEqual(-1);
      },
    );
  }
});
