/// <reference types="node" />
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sequenceAlbum } from '../album/album-sequence';
import { concatBytes } from '../codecs/codec-tools.test-helper';
import { EXPORT_MESSAGES } from '../codecs/export-errors';
import { Mp3SeamError } from '../codecs/mp3-parallel';
import { decodeWav } from '../codecs/wav-decoder';
import { encodeWav } from '../codecs/wav-encoder';
import { musicLike } from '../dsp/test-signals';
import { EncoderClient } from './encode-client';
import { createEncodeHandlers } from './encode-handlers';
import type { EncodeApi } from './encode-protocol';
import { type RpcEndpoint, type RpcHandlers, serveRpc, WorkerCrashedError } from './worker-rpc';

const require = createRequire(import.meta.url);
const wasm = readFileSync(require.resolve('wasm-media-encoders/wasm/mp3'));

/** The encoder handlers served over a MessageChannel stand in for the Worker (Node has no module workers). */
const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});
const spawned: MessagePort[] = [];
/** Segment jobs started, and those that saw their cancel signal. */
let segmentsStarted = 0;
let segmentsCancelled = 0;
/** Makes the next joins fail as if no seam passed its checks. */
let failJoins = false;
const factory = () => {
  const channel = new MessageChannel();
  ports.push(channel.port1, channel.port2);
  const handlers: RpcHandlers<EncodeApi> = createEncodeHandlers(wasm);
  const segment = handlers.mp3Segment;
  handlers.mp3Segment = (request, context) => {
    segmentsStarted++;
    context.signal.addEventListener('abort', () => segmentsCancelled++);
    return segment(request, context);
  };
  const joinSegments = handlers.mp3Join;
  handlers.mp3Join = (request, context) => {
    if (failJoins) throw new Mp3SeamError('No MP3 frame to join the segments at');
    return joinSegments(request, context);
  };
  serveRpc<EncodeApi>(channel.port2 as unknown as RpcEndpoint, handlers);
  spawned.push(channel.port1);
  return channel.port1 as unknown as Worker;
};
const dir = mkdtempSync(join(tmpdir(), 'encode-client-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Byte equality of big files (vitest's deep equality walks them element by element, far too slowly). */
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

const sine = (n: number) => Float32Array.from({ length: n }, (_, i) => 0.5 * Math.sin(i / 7));

describe('EncoderClient over the encoder handlers', () => {
  it('returns a WAV Blob with progress up to 1, and the spec error for an empty buffer', async () => {
    const client = new EncoderClient(factory);
    const progress: number[] = [];
    const blob = await client.wav([sine(300_000), sine(300_000)], 44_100, {
      onProgress: (f) => progress.push(f),
    });
    expect(blob.type).toBe('audio/wav');
    const wav = decodeWav(new Uint8Array(await blob.arrayBuffer()));
    expect(wav).toMatchObject({ channelCount: 2, frames: 300_000, sampleRate: 44_100 });
    expect(progress.at(-1)).toBe(1);
    await expect(client.wav([new Float32Array(0)], 44_100)).rejects.toThrow(EXPORT_MESSAGES.emptyBuffer);
    client.dispose();
  });

  it('encodes a long 16-bit WAV in two workers to exactly the bytes of one, dither included', async () => {
    const client = new EncoderClient(factory);
    const before = spawned.length;
    const input = musicLike({ seconds: 21, sampleRate: 44_100, seed: 4 });
    const serial = new Uint8Array(await (await client.wav(input, 44_100, { workers: 1 })).arrayBuffer());
    expect(sameBytes(serial, concatBytes(encodeWav(input, 44_100)))).toBe(true);
    const progress: number[] = [];
    const copy = input.map((c) => c.slice());
    const blob = await client.wav(copy, 44_100, {
      workers: 2,
      transfer: true,
      onProgress: (f) => progress.push(f),
    });
    expect(blob.type).toBe('audio/wav');
    expect(sameBytes(new Uint8Array(await blob.arrayBuffer()), serial)).toBe(true);
    expect(spawned.length - before).toBe(2);
    expect(copy[0]!.length).toBe(0); // the first half's worker took the caller's arrays
    expect(progress.at(-1)).toBe(1);
    expect(progress.every((f, i) => i === 0 || f >= progress[i - 1]!)).toBe(true);
    // A mono file of an odd length, without moving the input; the same bytes again.
    const mono = [input[0]!.subarray(1)];
    const twoMono = await client.wav(mono, 44_100, { workers: 2 });
    expect(sameBytes(new Uint8Array(await twoMono.arrayBuffer()), concatBytes(encodeWav(mono, 44_100)))).toBe(
      true,
    );
    // A cancel stops both halves.
    const controller = new AbortController();
    const job = client.wav(input, 44_100, {
      workers: 2,
      signal: controller.signal,
      onProgress: (f) => {
        if (f > 0.2) controller.abort();
      },
    });
    await expect(job).rejects.toThrow(/abort/i);
    client.dispose();
  });

  it('returns an MP3 Blob, moves the input when asked, and cancels', async () => {
    const client = new EncoderClient(factory);
    const left = sine(44_100 * 3);
    const blob = await client.mp3([left], 44_100, { transfer: true });
    expect(blob.type).toBe('audio/mpeg');
    expect(blob.size).toBeGreaterThan(100_000);
    expect(left.length).toBe(0); // transferred away
    const controller = new AbortController();
    const job = client.mp3([sine(44_100 * 30)], 44_100, {
      signal: controller.signal,
      onProgress: (f) => {
        if (f > 0.1) controller.abort();
      },
    });
    await expect(job).rejects.toThrow(/abort/i);
    client.dispose();
  });

  it.runIf(existsSync('/usr/bin/ffmpeg'))(
    'splits a long MP3 over two workers: one file of exactly the input length, progress to 1, input moved',
    async () => {
      const client = new EncoderClient(factory);
      const before = spawned.length;
      const input = musicLike({ seconds: 25, sampleRate: 44_100, seed: 4 });
      const length = input[0]!.length;
      const progress: number[] = [];
      const blob = await client.mp3(input, 44_100, {
        workers: 2,
        transfer: true,
        onProgress: (f) => progress.push(f),
      });
      expect(spawned.length - before).toBe(2);
      expect(input[0]!.length).toBe(0); // moved to the first worker
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(progress.at(-1)).toBe(1);
      const file = join(dir, 'parallel.mp3');
      writeFileSync(file, new Uint8Array(await blob.arrayBuffer()));
      const raw = execFileSync('/usr/bin/ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-'], {
        maxBuffer: 1 << 28,
      });
      expect(raw.length / 8).toBe(length);
      client.dispose();
    },
  );

  it('cancels both segment workers, and a crashed segment worker rejects the export', async () => {
    const client = new EncoderClient(factory);
    const controller = new AbortController();
    segmentsStarted = 0;
    segmentsCancelled = 0;
    const job = client.mp3(musicLike({ seconds: 40, sampleRate: 44_100, seed: 2 }), 44_100, {
      workers: 2,
      signal: controller.signal,
      onProgress: (f) => {
        if (f > 0.1) controller.abort();
      },
    });
    await expect(job).rejects.toThrow(/abort/i);
    // No segment goes on encoding (one may not have started yet when the cancel came).
    await expect.poll(() => segmentsCancelled).toBe(segmentsStarted);
    expect(segmentsStarted).toBeGreaterThan(0);

    segmentsStarted = 0;
    segmentsCancelled = 0;
    const crashing = client.mp3(musicLike({ seconds: 40, sampleRate: 44_100, seed: 3 }), 44_100, {
      workers: 2,
      onProgress: (f) => {
        if (f > 0.1 && segmentsStarted === 2 && segmentsCancelled === 0) {
          spawned.at(-1)!.dispatchEvent(new Event('error'));
        }
      },
    });
    await expect(crashing).rejects.toBeInstanceOf(WorkerCrashedError);
    // The surviving worker's segment is cancelled, and the client works again (a fresh second worker).
    await expect.poll(() => segmentsCancelled).toBe(1);
    const again = await client.mp3(musicLike({ seconds: 21, sampleRate: 44_100, seed: 1 }), 44_100, {
      workers: 2,
    });
    expect(again.size).toBeGreaterThan(21 * 40_000);
    client.dispose();
  });

  it.runIf(existsSync('/usr/bin/ffmpeg'))(
    'falls back to one worker when the segments cannot be joined, with the input it had moved away',
    async () => {
      const client = new EncoderClient(factory);
      const input = musicLike({ seconds: 22, sampleRate: 44_100, seed: 8 });
      const length = input[0]!.length;
      failJoins = true;
      try {
        const blob = await client.mp3(input, 44_100, { workers: 2, transfer: true });
        const file = join(dir, 'fallback.mp3');
        writeFileSync(file, new Uint8Array(await blob.arrayBuffer()));
        const raw = execFileSync('/usr/bin/ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-'], {
          maxBuffer: 1 << 28,
        });
        expect(raw.length / 8).toBe(length);
      } finally {
        failJoins = false;
        client.dispose();
      }
    },
  );

  it('resamples in the worker with progress, and a cancel stops it; the worker then serves a FLAC', async () => {
    const client = new EncoderClient(factory);
    const progress: number[] = [];
    const out = await client.resample([sine(96_000), sine(96_000)], 48_000, 44_100, {
      onProgress: (f) => progress.push(f),
    });
    expect(out.map((c) => c.length)).toEqual([88_200, 88_200]);
    expect(progress.at(-1)).toBe(1);
    const stop = new AbortController();
    const cancelled = client.resample([sine(2_000_000)], 48_000, 44_100, {
      signal: stop.signal,
      onProgress: (f) => {
        if (f > 0.05) stop.abort();
      },
    });
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    const flac = await client.flac([sine(10_000)], 44_100, { bits: 24 });
    expect(flac.type).toBe('audio/flac');
    expect(new Uint8Array(await flac.slice(0, 4).arrayBuffer())).toEqual(new TextEncoder().encode('fLaC'));
    client.dispose();
  });

  it('builds an album record in the worker, a track at a time, exactly as sequenceAlbum (gap, crossfade, mono)', async () => {
    const client = new EncoderClient(factory);
    const tracks = [
      musicLike({ seconds: 3, sampleRate: 44_100, seed: 1 }),
      [sine(100_000)],
      musicLike({ seconds: 2, sampleRate: 44_100, seed: 2 }),
    ];
    const options = { gapSeconds: 1.5, transitions: [{}, { crossfadeSeconds: 0.5 }] };
    const expected = sequenceAlbum(tracks, 44_100, options);
    // The worker takes the arrays (moved): it gets copies, one track at a time, as the page gives them.
    async function* copies() {
      for (const t of tracks) yield t.map((c) => c.slice());
    }
    const layout = { lengths: tracks.map((t) => t[0]!.length), channels: 2, sampleRate: 44_100, options };
    const record = await client.sequence(layout, copies());
    expect(record.starts).toEqual(expected.starts);
    expect(record.frames).toBe(expected.frames);
    expect(record.channels).toHaveLength(2);
    for (const [c, data] of record.channels.entries())
      expect(sameBytes(new Uint8Array(data.buffer), new Uint8Array(expected.channels[c]!.buffer))).toBe(true);
    // A track of the wrong length is refused, and a record taken before its last track too.
    async function* wrong() {
      yield [sine(5)];
    }
    await expect(client.sequence(layout, wrong())).rejects.toThrow(
      "A track's length differs from the layout's",
    );
    client.dispose();
  });
});
