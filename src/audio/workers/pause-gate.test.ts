import { describe, expect, it } from 'vitest';
import { gateClosed, holdAtGate, setGateClosed } from './pause-gate';
import { RpcClient, type RpcEndpoint, serveRpc } from './worker-rpc';

/**
 * Shared memory for the tests: [gate, marker, asked]. The gate is index 0 (what holdAtGate reads); another
 * thread waits until this one says it is about to hold (asked = 1), writes the marker, then opens the gate.
 * Had the hold returned before the gate opened, the marker would still read 0.
 */
const memory = () => new Int32Array(new SharedArrayBuffer(12));

interface NodeWorker {
  terminate(): Promise<number>;
}
type NodeWorkerConstructor = new (code: string, options: { eval: true; workerData: unknown }) => NodeWorker;

const OPENER = `
const { workerData } = require('node:worker_threads');
const m = workerData;
Atomics.wait(m, 2, 0);
Atomics.store(m, 1, 7);
Atomics.store(m, 0, 0);
Atomics.notify(m, 0);
`;

/** A real thread (node:worker_threads, loaded dynamically: this folder is typed with browser types only). */
const startOpener = async (shared: Int32Array): Promise<NodeWorker> => {
  const { Worker } = (await import('node:worker_threads' as string)) as { Worker: NodeWorkerConstructor };
  return new Worker(OPENER, { eval: true, workerData: shared });
};

const askOpener = (shared: Int32Array) => {
  Atomics.store(shared, 2, 1);
  Atomics.notify(shared, 2);
};

describe('pause gate', () => {
  it('lets a checkpoint through at once when open or absent', () => {
    const gate = memory();
    holdAtGate(gate);
    holdAtGate(undefined);
    setGateClosed(gate, true);
    expect(gateClosed(gate)).toBe(true);
    setGateClosed(gate, false);
    expect(gateClosed(gate)).toBe(false);
    holdAtGate(gate);
  });

  it('holds a checkpoint while closed, until another thread opens it', async () => {
    const shared = memory();
    setGateClosed(shared, true);
    const opener = await startOpener(shared);
    try {
      askOpener(shared);
      holdAtGate(shared);
      expect(Atomics.load(shared, 1)).toBe(7);
      expect(gateClosed(shared)).toBe(false);
    } finally {
      await opener.terminate();
    }
  });

  it("holds a handler at its hold and its progress calls while the call's gate is closed", async () => {
    interface GateApi {
      work: { request: { via: 'hold' | 'progress' }; response: number; progress: number };
    }
    const channel = new MessageChannel();
    const client = new RpcClient<GateApi>(channel.port1 as unknown as RpcEndpoint);
    let shared = memory();
    serveRpc<GateApi>(channel.port2 as unknown as RpcEndpoint, {
      work: ({ via }, { hold, progress }) => {
        askOpener(shared);
        if (via === 'hold') hold();
        else progress(0.5);
        // Read right after the checkpoint: the opener writes the marker before it opens the gate.
        return Atomics.load(shared, 1);
      },
    });
    try {
      for (const via of ['hold', 'progress'] as const) {
        shared = memory();
        setGateClosed(shared, true);
        const opener = await startOpener(shared);
        try {
          const seen: number[] = [];
          const marker = await client.call(
            'work',
            { via },
            { gate: shared, onProgress: (p) => seen.push(p) },
          );
          expect(marker).toBe(7);
          expect(seen).toEqual(via === 'progress' ? [0.5] : []);
        } finally {
          await opener.terminate();
        }
      }
    } finally {
      channel.port1.close();
      channel.port2.close();
    }
  });
});
