import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

/** Test and benchmark helpers: real audio files and multipart bodies, built here rather than checked in. */

/** A 16-bit PCM WAV of a sine tone (stereo by default), synthesised sample by sample. */
export function wavBytes(opts: { seconds?: number; sampleRate?: number; channels?: number } = {}): Buffer {
  const { seconds = 0.5, sampleRate = 44100, channels = 2 } = opts;
  const frames = Math.round(seconds * sampleRate);
  const dataBytes = frames * channels * 2;
  const b = Buffer.alloc(44 + dataBytes);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + dataBytes, 4);
  b.write('WAVE', 8, 'latin1');
  b.write('fmt ', 12, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(channels, 22);
  b.writeUInt32LE(sampleRate, 24);
  b.writeUInt32LE(sampleRate * channels * 2, 28);
  b.writeUInt16LE(channels * 2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < frames; i++) {
    const v = Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 0.5 * 32767);
    for (let c = 0; c < channels; c++) b.writeInt16LE(v, 44 + (i * channels + c) * 2);
  }
  return b;
}

/** The header of a WAV whose data chunk claims `dataBytes` (for streaming big bodies behind it). */
export const wavHeader = (dataBytes: number): Buffer => {
  const h = wavBytes({ seconds: 0 });
  h.writeUInt32LE(36 + dataBytes, 4);
  h.writeUInt32LE(dataBytes, 40);
  return h;
};

export const FFMPEG = '/usr/bin/ffmpeg';
export const ffmpegMissing = (): string =>
  fs.existsSync(FFMPEG) ? '' : `${FFMPEG} is not installed: the MP3 and OGG upload tests need it`;

/** Encodes a WAV with the real ffmpeg: MP3 through LAME, OGG through libvorbis. */
export function encode(wav: Buffer, format: 'mp3' | 'ogg'): Buffer {
  const codec =
    format === 'mp3' ? ['-c:a', 'libmp3lame', '-b:a', '128k'] : ['-c:a', 'libvorbis', '-q:a', '3'];
  const out = spawnSync(
    FFMPEG,
    ['-hide_banner', '-loglevel', 'error', '-f', 'wav', '-i', 'pipe:0', ...codec, '-f', format, 'pipe:1'],
    { input: wav, maxBuffer: 64 * 1024 * 1024 },
  );
  if (out.status !== 0) throw new Error(`ffmpeg failed: ${out.stderr.toString()}`);
  return out.stdout;
}

/** Issue 19's input formats as ffmpeg writes them (through a file: AIFF and MP4 seek back to write sizes). */
export const STUDIO_INPUTS = {
  flac: ['-c:a', 'flac', '-f', 'flac'],
  aiff: ['-c:a', 'pcm_s24be', '-f', 'aiff'],
  aifc: ['-c:a', 'pcm_s16le', '-f', 'aiff'], // AIFF-C 'sowt'
  m4a: ['-c:a', 'aac', '-b:a', '128k', '-f', 'ipod'],
  aac: ['-c:a', 'aac', '-b:a', '128k', '-f', 'adts'],
} as const;

export function encodeStudio(wav: Buffer, format: keyof typeof STUDIO_INPUTS): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-input-'));
  try {
    const out = path.join(dir, `out.${format}`);
    const run = spawnSync(
      FFMPEG,
      ['-hide_banner', '-loglevel', 'error', '-f', 'wav', '-i', 'pipe:0', ...STUDIO_INPUTS[format], out],
      { input: wav, maxBuffer: 64 * 1024 * 1024 },
    );
    if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr.toString()}`);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export type FormPart =
  | { name: string; value: string }
  | { name: string; filename: string; contentType: string; data: Buffer };

export const BOUNDARY = '----test-boundary-7d3f9a';

/** A multipart/form-data body, the way a browser's FormData encodes one. */
export function multipart(
  parts: FormPart[],
  boundary = BOUNDARY,
): { payload: Buffer; headers: Record<string, string> } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition =
      'filename' in p
        ? `form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.contentType}`
        : `form-data; name="${p.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    chunks.push('filename' in p ? p.data : Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * A streamed multipart body whose file is a WAV header followed by `dataBytes` of noise, generated as it is
 * read (nothing big is held in memory). The text fields come after the file, as the mixer sends them.
 */
export function streamedWavUpload(dataBytes: number, fields: Record<string, string>, chunkSize = 256 * 1024) {
  const boundary = `----stream-${randomBytes(6).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  const tail = Buffer.concat([
    Buffer.from('\r\n'),
    ...Object.entries(fields).map(([k, v]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    ),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  const header = wavHeader(dataBytes);
  const noise = randomBytes(chunkSize);
  const totalBytes = head.length + header.length + dataBytes + tail.length;
  async function* body() {
    yield Buffer.concat([head, header]);
    for (let left = dataBytes; left > 0; left -= chunkSize)
      yield noise.subarray(0, Math.min(chunkSize, left));
    yield tail;
  }
  return {
    totalBytes,
    fileBytes: header.length + dataBytes,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(totalBytes),
    },
    stream: () => Readable.from(body(), { objectMode: false }),
  };
}

/** An ID3v2.4 tag header declaring `size` bytes of tag body (syncsafe integer), e.g. for cover art. */
export const id3Header = (size: number): Buffer =>
  Buffer.from([
    0x49,
    0x44,
    0x33,
    4,
    0,
    0,
    (size >> 21) & 0x7f,
    (size >> 14) & 0x7f,
    (size >> 7) & 0x7f,
    size & 0x7f,
  ]);

/** An MPEG-1 layer III frame header (128 kbit/s, 44.1 kHz), followed by zero bytes to the frame's end. */
export const mp3Frame = (): Buffer => {
  const f = Buffer.alloc(417);
  f.set([0xff, 0xfb, 0x90, 0x64]);
  return f;
};

/** Sends a streamed body over real HTTP and resolves with the status and JSON answer. */
export function httpUpload(
  url: string,
  headers: Record<string, string>,
  body: Readable,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
      });
    });
    req.on('error', reject);
    body.pipe(req);
  });
}

/** Every file under a folder, relative paths, sorted: "the storage folder holds exactly what it held". */
export function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}
