/**
 * The e2e material (scripts/generate-demo-tracks 'pop', 24 s, uploaded as 16-bit WAV) mastered with every
 * preset, exported as the app exports it (16-bit WAV with TPDF dither) and measured by ffmpeg's ebur128:
 * the loudness target is hit, the true peak respects the ceiling, and our meter agrees with ffmpeg's.
 */
import { describe, expect, it } from 'vitest';
import { PRESET_IDS, PRESETS } from '../../shared/mastering';
import { concatBytes } from '../codecs/codec-tools.test-helper';
import { decodeWav } from '../codecs/wav-decoder';
import { encodeWav } from '../codecs/wav-encoder';
import { measureLoudness } from './loudness';
import { renderMaster } from './mastering-chain';
import { ffmpegAvailable, ffmpegEbur128OnFile } from './node-tools.test-helper';

const RATE = 44_100;
const immediate = () => Promise.resolve();

interface Generator {
  synthTrack(style: 'pop', seconds: number, sampleRate: number): Float32Array[];
  wavBytes(channels: Float32Array[], sampleRate: number): Uint8Array;
}
const hasFfmpeg = await ffmpegAvailable();
if (!hasFfmpeg) console.warn('ffmpeg not found: skipping the ffmpeg comparison of mastered presets');

describe.skipIf(!hasFfmpeg)('mastered e2e material measured by ffmpeg', () => {
  for (const id of PRESET_IDS) {
    it(`${id}: ${PRESETS[id].targetLufs} LUFS +/-0.5, <= -1 dBTP (ffmpeg), our meter within 0.1 dB`, async () => {
      const generator = (await import('../../../scripts/generate-demo-tracks' as string)) as Generator;
      // The upload is a 16-bit file: master what the browser decodes from it.
      const source = decodeWav(generator.wavBytes(generator.synthTrack('pop', 24, RATE), RATE)).channels;
      const report = await renderMaster(
        source,
        RATE,
        { settings: PRESETS[id].settings, targetLufs: PRESETS[id].targetLufs },
        { yieldFn: immediate },
      );
      const bytes = concatBytes(encodeWav(source, RATE));
      const ours = measureLoudness(decodeWav(bytes).channels, RATE);
      const theirs = await ffmpegEbur128OnFile(bytes);
      console.log(
        `${id}: gain ${report.gainDb.toFixed(2)} dB, GR ${report.limiterMinGainDb.toFixed(2)} dB, ` +
          `ffmpeg ${theirs.integrated} LUFS ${theirs.truePeak} dBTP, ours ${ours.integratedLufs.toFixed(2)} LUFS ` +
          `${ours.truePeakDbtp.toFixed(2)} dBTP`,
      );
      expect(Math.abs(theirs.integrated - PRESETS[id].targetLufs)).toBeLessThanOrEqual(0.5);
      expect(theirs.truePeak).toBeLessThanOrEqual(-1);
      expect(Math.abs(ours.truePeakDbtp - theirs.truePeak)).toBeLessThanOrEqual(0.1);
    }, 60_000);
  }
});
