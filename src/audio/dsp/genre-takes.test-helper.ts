/**
 * The three-take test of issue 28: a produced track, a dull take (-6 dB shelf at 4.5 kHz, +3 dB at 150 Hz)
 * and a bright take (the opposite), each made by ffmpeg's own shelving filters; the tilt of each (level
 * 4-16 kHz minus level 250 Hz-1 kHz) measured by ffmpeg (band-pass and astats), not by the engine.
 */
import { floatWav, loadNodeTools } from './node-tools.test-helper';

export const TAKES = {
  original: '',
  dull: 'bass=g=3:f=150,treble=g=-6:f=4500',
  bright: 'bass=g=-3:f=150,treble=g=6:f=4500',
} as const;
export type Take = keyof typeof TAKES;

/** `seconds` of a file from `fromSeconds`, through `filter`, as stereo float at `sampleRate`; null if missing. */
export const decodeTake = async (
  path: string,
  sampleRate: number,
  filter: string,
  fromSeconds = 30,
  seconds = 40,
): Promise<Float32Array[] | null> => {
  const { child, fs, tmp } = await loadNodeTools();
  if (!fs.existsSync(path)) return null;
  const dir = fs.mkdtempSync(`${tmp}/take-`);
  try {
    const out = `${dir}/out.f32`;
    const args = ['-v', 'error', '-ss', String(fromSeconds), '-t', String(seconds), '-i', path];
    if (filter) args.push('-af', filter);
    args.push('-f', 'f32le', '-ac', '2', '-ar', String(sampleRate), out);
    if (child.spawnSync('ffmpeg', args, { encoding: 'utf8' }).status !== 0) return null;
    return deinterleave(fs.readFileSync(out));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

const deinterleave = (bytes: Uint8Array): Float32Array[] => {
  const samples = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const frames = samples.length / 2;
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    left[i] = samples[2 * i]!;
    right[i] = samples[2 * i + 1]!;
  }
  return [left, right];
};

/** The same filters on channels already in memory (pink noise): ffmpeg reads a float WAV and writes back. */
export const filterWithFfmpeg = async (
  channels: readonly Float32Array[],
  sampleRate: number,
  filter: string,
): Promise<Float32Array[]> => {
  if (!filter) return channels.map((c) => c.slice());
  const { child, fs, tmp } = await loadNodeTools();
  const dir = fs.mkdtempSync(`${tmp}/filter-`);
  try {
    fs.writeFileSync(`${dir}/in.wav`, floatWav(channels, sampleRate));
    const args = [
      '-v',
      'error',
      '-i',
      `${dir}/in.wav`,
      '-af',
      filter,
      '-f',
      'f32le',
      '-ac',
      '2',
      `${dir}/o.f32`,
    ];
    if (child.spawnSync('ffmpeg', args, { encoding: 'utf8' }).status !== 0) throw new Error('ffmpeg failed');
    return deinterleave(fs.readFileSync(`${dir}/o.f32`));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

/** RMS level (dB) of the mid between `lowHz` and `highHz`, by ffmpeg: 4th-order high- and low-pass, astats. */
const bandLevel = (
  child: Awaited<ReturnType<typeof loadNodeTools>>['child'],
  file: string,
  lowHz: number,
  highHz: number,
) => {
  const af =
    `pan=mono|c0=0.5*c0+0.5*c1,highpass=f=${lowHz},highpass=f=${lowHz},` +
    `lowpass=f=${highHz},lowpass=f=${highHz},astats=measure_perchannel=none:measure_overall=RMS_level`;
  const run = child.spawnSync(
    'ffmpeg',
    ['-hide_banner', '-nostats', '-i', file, '-af', af, '-f', 'null', '-'],
    {
      encoding: 'utf8',
    },
  );
  const m = /RMS level dB:\s*(-?[\d.]+|-inf)/.exec(run.stderr);
  if (!m) throw new Error(`astats gave no RMS level: ${run.stderr.slice(-400)}`);
  return Number(m[1]);
};

/** Tilt = level 4-16 kHz minus level 250 Hz-1 kHz, dB, measured by ffmpeg. */
export const ffmpegTilt = async (channels: readonly Float32Array[], sampleRate: number): Promise<number> => {
  const { child, fs, tmp } = await loadNodeTools();
  const dir = fs.mkdtempSync(`${tmp}/tilt-`);
  try {
    const file = `${dir}/in.wav`;
    fs.writeFileSync(file, floatWav(channels, sampleRate));
    return bandLevel(child, file, 4000, 16000) - bandLevel(child, file, 250, 1000);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
