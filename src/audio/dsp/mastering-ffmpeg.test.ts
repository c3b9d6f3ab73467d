/**
 * The e2e material (scripts/generate-demo-tracks 'pop', 24 s, uploaded as 16-bit WAV) mastered with every
 * preset, exported as the app exports it (16-bit WAV with TPDF dither) and measured by ffmpeg's ebur128:
 * the loudness target is hit, the true peak respects the ceiling, and our meter agrees with ffmpeg's.
 */
import { describe, expect, it } from 'vitest';
import { PRESET_IDS, PRESETS } from '../../shared/mastering';
import { decodeWav } from '../codecs/wav-decoder';
import { encodeWav } from '../codecs/wav-encoder';
import { measureLoudness } from './loudness';
import { renderMaster } from './mastering-chain';
import { ffmpegAvailable } from './node-tools.test-helper';

const RATE = 44_100;
const immediate = () => Promise.resolve();

interface Generator {
  synthTrack(style: 'pop', seconds: number, sampleRate: number): Float32Array[];
  wavBytes(channels: Float32Array[], sampleRate: number): Uint8Array;
}
interface ChildProcess {
  spawnSync(
    command: string,
    args: string[],
    options: { encoding: 'utf8'; maxBuffer?: number },
  ): { status: number | null; stderr: string };
}
interface Fs {
  writeFileSync(path: string, data: Uint8Array): void;
  mkdtempSync(prefix: string): string;
  rmSync(path: string, options: { recursive: boolean; force: boolean }): void;
}

/** ffmpeg's integrated loudness and true peak of a file, as e2e/helpers/mastering-audio.ts reads them. */
const ffmpegOnFile = async (bytes: Uint8Array): Promise<{ integrated: number; truePeak: number }> => {
  const child = (await import('node:child_process' as string)) as ChildProcess;
  const fs = (await import('node:fs' as string)) as Fs;
  const tmp = ((await import('node:os' as string)) as { tmpdir(): string }).tmpdir();
  const dir = fs.mkdtempSync(`${tmp}/master-ffmpeg-`);
  try {
    const file = `${dir}/master.wav`;
    fs.writeFileSync(file, bytes);
    const run = child.spawnSync(
      'ffmpeg',
      [
        '-hide_banner',
        '-nostats',
        '-filter_threads',
        '1',
        '-i',
        file,
        '-af',
        'ebur128=peak=true',
        '-f',
        'null',
        '-',
      ],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr.slice(-500)}`);
    const summary = run.stderr.slice(run.stderr.lastIndexOf('Summary:'));
    return {
      integrated: Number(summary.match(/I:\s+(-?[\d.]+) LUFS/)?.[1]),
      truePeak: Number(summary.match(/Peak:\s+(-?[\d.]+) dBFS/)?.[1]),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

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
      const bytes = concat(encodeWav(source, RATE));
      const ours = measureLoudness(decodeWav(bytes).channels, RATE);
      const theirs = await ffmpegOnFile(bytes);
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
