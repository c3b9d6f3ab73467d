/**
 * Node-only helpers for tests that compare with ffmpeg. Node modules are imported dynamically and typed
 * locally because src/audio is type-checked with browser types only.
 */

interface ChildProcess {
  spawnSync(
    command: string,
    args: string[],
    options: { encoding: 'utf8'; maxBuffer?: number },
  ): { status: number | null; stdout: string; stderr: string; error?: Error };
}
interface Fs {
  writeFileSync(path: string, data: Uint8Array): void;
  mkdtempSync(prefix: string): string;
  rmSync(path: string, options: { recursive: boolean; force: boolean }): void;
  existsSync(path: string): boolean;
  readFileSync(path: string): Uint8Array;
}

/** Node's child_process, fs and the temp folder (also for the other Node-only test helpers). */
export const loadNodeTools = async () => ({
  child: (await import('node:child_process' as string)) as ChildProcess,
  fs: (await import('node:fs' as string)) as Fs,
  tmp: ((await import('node:os' as string)) as { tmpdir(): string }).tmpdir(),
});

export const ffmpegAvailable = async (): Promise<boolean> => {
  const { child } = await loadNodeTools();
  const probe = child.spawnSync('ffmpeg', ['-version'], { encoding: 'utf8' });
  return probe.status === 0;
};

/**
 * A music file decoded by ffmpeg to stereo float at `sampleRate`; null when the file or ffmpeg is missing
 * or cannot decode it (tests on the machine's Debian music packages skip what is not there).
 */
export const decodeWithFfmpeg = async (path: string, sampleRate: number): Promise<Float32Array[] | null> => {
  const { child, fs, tmp } = await loadNodeTools();
  if (!fs.existsSync(path)) return null;
  const dir = fs.mkdtempSync(`${tmp}/decode-`);
  try {
    const out = `${dir}/out.f32`;
    const args = ['-v', 'error', '-i', path, '-f', 'f32le', '-ac', '2', '-ar', String(sampleRate), out];
    const run = child.spawnSync('ffmpeg', args, { encoding: 'utf8' });
    if (run.status !== 0) return null;
    const bytes = fs.readFileSync(out);
    const samples = new Float32Array(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    );
    const frames = samples.length / 2;
    const left = new Float32Array(frames);
    const right = new Float32Array(frames);
    for (let i = 0; i < frames; i++) {
      left[i] = samples[2 * i]!;
      right[i] = samples[2 * i + 1]!;
    }
    return [left, right];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

/** 32-bit float WAV bytes of the channels. */
export const floatWav = (channels: readonly Float32Array[], sampleRate: number): Uint8Array => {
  const frames = channels[0]!.length;
  const count = channels.length;
  const dataBytes = frames * count * 4;
  const buffer = new ArrayBuffer(44 + dataBytes);
  const view = new DataView(buffer);
  const text = (offset: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(offset + i, s.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 3, true); // IEEE float
  view.setUint16(22, count, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * count * 4, true);
  view.setUint16(32, count * 4, true);
  view.setUint16(34, 32, true);
  text(36, 'data');
  view.setUint32(40, dataBytes, true);
  const samples = new Float32Array(buffer, 44);
  for (let i = 0, j = 0; i < frames; i++) for (let c = 0; c < count; c++) samples[j++] = channels[c]![i]!;
  return new Uint8Array(buffer);
};

export interface FfmpegLoudness {
  integrated: number;
  range: number;
  truePeak: number;
}

/** Runs `ffmpeg -af ebur128=peak=true` on the channels and parses its summary. */
export const ffmpegEbur128 = (
  channels: readonly Float32Array[],
  sampleRate: number,
): Promise<FfmpegLoudness> => ffmpegEbur128OnFile(floatWav(channels, sampleRate));

/** The same measurement of a whole audio file's bytes (e.g. an exported 16-bit WAV). */
export const ffmpegEbur128OnFile = async (bytes: Uint8Array): Promise<FfmpegLoudness> => {
  const { child, fs, tmp } = await loadNodeTools();
  const dir = fs.mkdtempSync(`${tmp}/ebur128-`);
  try {
    const file = `${dir}/in.wav`;
    fs.writeFileSync(file, bytes);
    const run = child.spawnSync(
      'ffmpeg',
      [
        '-nostats',
        '-hide_banner',
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
    const number = (label: RegExp) => {
      const m = summary.match(label);
      if (!m) throw new Error(`ffmpeg summary without ${label}: ${summary}`);
      return Number(m[1]);
    };
    return {
      integrated: number(/I:\s+(-?[\d.]+) LUFS/),
      range: number(/LRA:\s+(-?[\d.]+) LU/),
      truePeak: number(/Peak:\s+(-?[\d.]+) dBFS/),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
