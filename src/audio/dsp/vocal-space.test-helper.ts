/**
 * Node-only fixtures of the vocal-space tests: a spoken "vocal" from espeak-ng over a real produced beat
 * (Debian's game music), and sox's FIR band filter as a measurement independent of our biquads.
 * Node modules come from node-tools.test-helper (imported dynamically: src/audio is checked with browser types).
 */
import { decodeWithFfmpeg, floatWav, loadNodeTools as load } from './node-tools.test-helper';
import { singingBlocks } from './vocal-clarity';
import type { VocalSpaceProfile } from './vocal-space';

/** Verses with pauses between them, so the vocal both sings and rests. */
export const LYRICS = [
  'Turn it up, we are moving through the night, every light is burning bright.',
  'Hold on, hold on, the city never sleeps, the rhythm is running deep.',
  'Sing it loud, sing it clear, let the whole world hear.',
];

export const BEATS = [
  '/usr/share/games/asc/music/machine_wars.mp3',
  '/usr/share/hyperrogue/music/hr3-hell.ogg',
  '/usr/share/games/asc/music/time_to_strike.mp3',
];

/**
 * espeak-ng speaking `lines` with `pauseSeconds` of silence between them, stereo at `sampleRate`
 * (resampled by ffmpeg); null when espeak-ng or ffmpeg is missing.
 */
export const espeakVocal = async (
  lines: readonly string[],
  sampleRate: number,
  pauseSeconds = 1.5,
): Promise<Float32Array[] | null> => {
  const { child, fs, tmp } = await load();
  if (child.spawnSync('espeak-ng', ['--version'], { encoding: 'utf8' }).status !== 0) return null;
  const dir = fs.mkdtempSync(`${tmp}/espeak-`);
  try {
    const parts: Float32Array[][] = [];
    for (const [i, line] of lines.entries()) {
      const file = `${dir}/line-${i}.wav`;
      // A singer-ish voice: slower, higher pitch, wide pitch range.
      const run = child.spawnSync('espeak-ng', ['-v', 'en-us', '-s', '140', '-p', '60', '-w', file, line], {
        encoding: 'utf8',
      });
      if (run.status !== 0) return null;
      const decoded = await decodeWithFfmpeg(file, sampleRate);
      if (!decoded) return null;
      parts.push(decoded);
    }
    const pause = Math.round(pauseSeconds * sampleRate);
    const frames = parts.reduce((n, p) => n + p[0]!.length + pause, pause);
    const out = [new Float32Array(frames), new Float32Array(frames)];
    let at = pause;
    for (const p of parts) {
      out[0]!.set(p[0]!, at);
      out[1]!.set(p[1]!, at);
      at += p[0]!.length + pause;
    }
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

/**
 * `frames` of a real beat starting `offsetSeconds` in (ffmpeg decodes only that stretch); null when the file
 * is not installed or too short.
 */
export const realBeat = async (
  path: string,
  sampleRate: number,
  offsetSeconds: number,
  frames: number,
): Promise<Float32Array[] | null> => {
  const { child, fs, tmp } = await load();
  if (!fs.existsSync(path)) return null;
  const dir = fs.mkdtempSync(`${tmp}/beat-`);
  try {
    const out = `${dir}/beat.wav`;
    const seconds = String(frames / sampleRate + 1);
    const args = ['-v', 'error', '-ss', String(offsetSeconds), '-t', seconds, '-i', path];
    const run = child.spawnSync(
      'ffmpeg',
      [...args, '-c:a', 'pcm_f32le', '-ac', '2', '-ar', String(sampleRate), out],
      {
        encoding: 'utf8',
      },
    );
    if (run.status !== 0) return null;
    const decoded = await decodeWithFfmpeg(out, sampleRate);
    if (!decoded || decoded[0]!.length < frames) return null;
    return decoded.map((c) => c.slice(0, frames));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

/** The channels through sox's linear-phase FIR band-pass `sinc low-high` (an independent band filter). */
export const soxBand = async (
  channels: readonly Float32Array[],
  sampleRate: number,
  lowHz: number,
  highHz: number,
): Promise<Float32Array[]> => {
  const { child, fs, tmp } = await load();
  const dir = fs.mkdtempSync(`${tmp}/soxband-`);
  try {
    const input = `${dir}/in.wav`;
    const output = `${dir}/out.wav`;
    fs.writeFileSync(input, floatWav(channels, sampleRate));
    const run = child.spawnSync(
      'sox',
      [input, '-e', 'floating-point', output, 'sinc', `${lowHz}-${highHz}`],
      {
        encoding: 'utf8',
      },
    );
    if (run.status !== 0) throw new Error(`sox failed: ${run.stderr}`);
    const decoded = await decodeWithFfmpeg(output, sampleRate);
    if (!decoded) throw new Error('sox output did not decode');
    return decoded;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

/** RMS in dB of the channels' mono sum. */
export const rmsDb = (channels: readonly Float32Array[]): number => {
  const frames = channels[0]!.length;
  let sum = 0;
  for (let i = 0; i < frames; i++) {
    let m = 0;
    for (const c of channels) m += c[i]!;
    m /= channels.length;
    sum += m * m;
  }
  return 10 * Math.log10(sum / frames + 1e-30);
};

/** Energy ratio of two already band-filtered stereo signals over the singing blocks, dB. */
export const ratioOverBlocks = (
  vocal: readonly Float32Array[],
  beat: readonly Float32Array[],
  gate: ReturnType<typeof singingBlocks>,
): number => {
  let sv = 0;
  let sb = 0;
  const frames = vocal[0]!.length;
  for (let b = 0; b < gate.singing.length; b++) {
    if (!gate.singing[b]) continue;
    for (let i = b * gate.block; i < Math.min(frames, (b + 1) * gate.block); i++) {
      const v = 0.5 * (vocal[0]![i]! + vocal[1]![i]!);
      const x = 0.5 * (beat[0]![i]! + beat[1]![i]!);
      sv += v * v;
      sb += x * x;
    }
  }
  return 10 * Math.log10(sv / sb);
};

/**
 * The rise of the vocal-to-beat ratio from `before` to `after` as sox measures it: its FIR band filter
 * (1-5 kHz) over the same singing blocks the engine's figure uses. An independent check of that figure.
 */
export const soxRiseDb = async (
  vocal: readonly Float32Array[],
  before: readonly Float32Array[],
  after: readonly Float32Array[],
  sampleRate: number,
  profile: VocalSpaceProfile,
): Promise<number> => {
  const gate = singingBlocks(vocal, sampleRate, profile);
  const [v, b0, b1] = await Promise.all([
    soxBand(vocal, sampleRate, 1000, 5000),
    soxBand(before, sampleRate, 1000, 5000),
    soxBand(after, sampleRate, 1000, 5000),
  ]);
  return ratioOverBlocks(v, b1, gate) - ratioOverBlocks(v, b0, gate);
};
