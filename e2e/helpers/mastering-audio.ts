/** Test audio for the mastering specs and its checks with ffmpeg / ffprobe (real decoders, not ours). */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DemoStyle, synthTrack, wavBytes } from '../../scripts/generate-demo-tracks';

const folder = join(tmpdir(), 'mastering-e2e');

/** A synthesised stereo WAV of `seconds`, written once per name; returns its path. */
export const testWav = (name: string, style: DemoStyle, seconds: number, sampleRate = 44_100): string => {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${name}.wav`);
  writeFileSync(path, wavBytes(synthTrack(style, seconds, sampleRate), sampleRate));
  return path;
};

/** A WAV of digital silence (a file with no audio to master). */
export const silentWav = (seconds: number, sampleRate = 44_100): string => {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, 'silence.wav');
  const frames = Math.round(seconds * sampleRate);
  writeFileSync(path, wavBytes([new Float32Array(frames), new Float32Array(frames)], sampleRate));
  return path;
};

/** Bytes that claim to be WAV by name and type but are not audio. */
export const brokenWav = (): string => {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, 'broken.wav');
  writeFileSync(path, Buffer.from('this is not a wave file at all'.repeat(100)));
  return path;
};

export const textFile = (): string => {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, 'notes.txt');
  writeFileSync(path, 'not audio');
  return path;
};

export interface Probe {
  codec: string;
  formatName: string;
  duration: number;
  sampleRate: number;
  channels: number;
  bitRate: number;
}

export const ffprobe = (path: string): Probe => {
  const out = JSON.parse(
    execFileSync('/usr/bin/ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', path], {
      encoding: 'utf8',
    }),
  ) as {
    streams: {
      codec_name: string;
      sample_rate: string;
      channels: number;
      duration?: string;
      bit_rate?: string;
    }[];
    format: { format_name: string; duration: string; bit_rate?: string };
  };
  const s = out.streams[0]!;
  return {
    codec: s.codec_name,
    formatName: out.format.format_name,
    duration: Number(s.duration ?? out.format.duration),
    sampleRate: Number(s.sample_rate),
    channels: s.channels,
    bitRate: Number(s.bit_rate ?? out.format.bit_rate ?? 0),
  };
};

/** ffmpeg's EBU R128 meter: integrated loudness and true peak (dBTP) of a file. */
export const ebur128 = (path: string): { integrated: number; truePeak: number } => {
  const run = spawnSync(
    '/usr/bin/ffmpeg',
    [
      '-hide_banner',
      '-nostats',
      '-filter_threads',
      '1',
      '-i',
      path,
      '-af',
      'ebur128=peak=true',
      '-f',
      'null',
      '-',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`ffmpeg failed on ${path}: ${run.stderr.slice(-500)}`);
  return parseSummary(run.stderr);
};

const parseSummary = (text: string) => {
  const summary = text.slice(text.lastIndexOf('Summary:'));
  const integrated = Number(summary.match(/I:\s+(-?[\d.]+) LUFS/)?.[1]);
  const truePeak = Number(summary.match(/True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/)?.[1]);
  return { integrated, truePeak };
};

/** Seconds of audio ffmpeg decodes from a file (MP3: honours the LAME tag's delay and padding). */
export const decodedSeconds = (path: string): number => {
  const run = spawnSync('/usr/bin/ffmpeg', ['-v', 'error', '-i', path, '-ac', '1', '-f', 's16le', '-'], {
    maxBuffer: 512 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`ffmpeg could not decode ${path}`);
  return run.stdout.length / 2 / ffprobe(path).sampleRate;
};
