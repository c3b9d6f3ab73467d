/**
 * Node-only helpers for codec tests that check our files with the reference tools (flac, ffmpeg). Node
 * modules are imported dynamically and typed locally because src/audio is type-checked with browser types.
 */
interface Tools {
  spawnSync(
    command: string,
    args: string[],
    options: { encoding: 'buffer'; maxBuffer: number },
  ): { status: number | null; stdout: Uint8Array; stderr: Uint8Array };
}
interface Fs {
  writeFileSync(path: string, data: Uint8Array): void;
  readFileSync(path: string): Uint8Array;
  mkdtempSync(prefix: string): string;
  rmSync(path: string, options: { recursive: boolean; force: boolean }): void;
}

export interface ToolRun {
  status: number | null;
  stderr: string;
  stdout: Uint8Array;
  /** The bytes of `out.<outputExt>` when one was asked for (tools that must seek in what they write). */
  output?: Uint8Array;
}

/** Writes `bytes` to a temporary `in.<ext>` and runs `command` with args built from that path. */
export const runTool = async (
  bytes: Uint8Array,
  ext: string,
  command: string,
  args: (input: string, output: string) => string[],
  outputExt?: string,
): Promise<ToolRun> => {
  const child = (await import('node:child_process' as string)) as Tools;
  const fs = (await import('node:fs' as string)) as Fs;
  const tmp = ((await import('node:os' as string)) as { tmpdir(): string }).tmpdir();
  const dir = fs.mkdtempSync(`${tmp}/codec-`);
  try {
    const input = `${dir}/in.${ext}`;
    fs.writeFileSync(input, bytes);
    const output = `${dir}/out.${outputExt ?? 'bin'}`;
    const run = child.spawnSync(command, args(input, output), { encoding: 'buffer', maxBuffer: 1 << 30 });
    return {
      status: run.status,
      stderr: new TextDecoder().decode(run.stderr),
      stdout: run.stdout,
      output: outputExt && run.status === 0 ? fs.readFileSync(output) : undefined,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

/** ffmpeg's decode of a file to interleaved signed 32-bit integers (left-aligned, as ffmpeg scales). */
export const ffmpegS32 = async (bytes: Uint8Array, ext: string): Promise<Int32Array> => {
  const run = await runTool(bytes, ext, 'ffmpeg', (input) => [
    '-v',
    'error',
    '-i',
    input,
    '-f',
    's32le',
    '-acodec',
    'pcm_s32le',
    '-',
  ]);
  if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr}`);
  return new Int32Array(
    run.stdout.buffer.slice(run.stdout.byteOffset, run.stdout.byteOffset + run.stdout.byteLength),
  );
};

/** ffprobe's view of the first audio stream. */
export const ffprobe = async (
  bytes: Uint8Array,
  ext: string,
): Promise<{
  codec: string;
  sampleRate: number;
  channels: number;
  sampleFmt: string;
  bits: number;
  samples: number;
}> => {
  const run = await runTool(bytes, ext, 'ffprobe', (input) => [
    '-v',
    'error',
    '-select_streams',
    'a:0',
    '-count_packets',
    '-show_entries',
    'stream=codec_name,sample_rate,channels,sample_fmt,bits_per_raw_sample,bits_per_sample,duration_ts',
    '-of',
    'json',
    input,
  ]);
  if (run.status !== 0) throw new Error(`ffprobe failed: ${run.stderr}`);
  const s = JSON.parse(new TextDecoder().decode(run.stdout)).streams[0];
  return {
    codec: s.codec_name,
    sampleRate: Number(s.sample_rate),
    channels: s.channels,
    sampleFmt: s.sample_fmt,
    bits: Number(s.bits_per_raw_sample ?? 0) || Number(s.bits_per_sample ?? 0),
    samples: Number(s.duration_ts),
  };
};

/** The parts an encoder returns, as one file's bytes. */
export const concatBytes = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
