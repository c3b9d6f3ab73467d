/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPORT_MESSAGES } from '../codecs/export-errors';
import { decodeWav } from '../codecs/wav-decoder';
import { EncoderClient } from './encode-client';
import { createEncodeHandlers } from './encode-handlers';
import type { EncodeApi } from './encode-protocol';
import { type RpcEndpoint, serveRpc } from './worker-rpc';

const require = createRequire(import.meta.url);
const wasm = readFileSync(require.resolve('wasm-media-encoders/wasm/mp3'));

/** The encoder handlers served over a MessageChannel stand in for the Worker (Node has no module workers). */
const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});
const factory = () => {
  const channel = new MessageChannel();
  ports.push(channel.port1, channel.port2);
  serveRpc<EncodeApi>(channel.port2 as unknown as RpcEndpoint, createEncodeHandlers(wasm));
  return channel.port1 as unknown as Worker;
};

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
});
