import { afterEach, describe, expect, it } from 'vitest';
import {
  buffersOf,
  onWorkerCrash,
  RpcClient,
  type RpcEndpoint,
  serveRpc,
  throwIfAborted,
  transferring,
  WorkerCrashedError,
} from './worker-rpc';

interface TestApi {
  sum: {
    request: { values: Float32Array };
    response: { total: number; echoed: Float32Array };
    progress: number;
  };
  slow: { request: { blocks: number }; response: number; progress: number };
  fail: { request: null; response: never; progress: never };
}

interface NodeWorker {
  on(event: 'message', listener: (data: unknown) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  postMessage(message: unknown, transfer?: unknown[]): void;
  terminate(): Promise<number>;
}
type NodeWorkerConstructor = new (code: string, options: { eval: true }) => NodeWorker;

const ports: { close(): void }[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

const connected = () => {
  const channel = new MessageChannel();
  ports.push(channel.port1, channel.port2);
  const client = new RpcClient<TestApi>(channel.port1 as unknown as RpcEndpoint);
  serveRpc<TestApi>(channel.port2 as unknown as RpcEndpoint, {
    sum: ({ values }, { progress }) => {
      let total = 0;
      for (let i = 0; i < values.length; i++) total += values[i]!;
      progress(1);
      return transferring({ total, echoed: values }, buffersOf([values]));
    },
    slow: async ({ blocks }, { signal, progress }) => {
      for (let block = 0; block < blocks; block++) {
        throwIfAborted(signal);
        await new Promise((resolve) => setTimeout(resolve, 5));
        progress((block + 1) / blocks);
      }
      return blocks;
    },
    fail: () => {
      throw new RangeError('bad input');
    },
  });
  return client;
};

describe('worker-rpc', () => {
  it('routes replies by correlation id and moves buffers', async () => {
    const client = connected();
    const a = new Float32Array([1, 2, 3]);
    const b = new Float32Array([10, 20]);
    const progress: number[] = [];
    const [ra, rb] = await Promise.all([
      client.call('sum', { values: a }, { transfer: [a.buffer], onProgress: (p) => progress.push(p) }),
      client.call('sum', { values: b }),
    ]);
    expect(ra.total).toBe(6);
    expect(rb.total).toBe(30);
    expect(Array.from(ra.echoed)).toEqual([1, 2, 3]);
    expect(a.length).toBe(0); // transferred away, not copied
    expect(progress).toEqual([1]);
    expect(client.pendingCount).toBe(0);
  });

  it('reports progress and rejects with the remote error', async () => {
    const client = connected();
    const seen: number[] = [];
    await expect(client.call('slow', { blocks: 4 }, { onProgress: (p) => seen.push(p) })).resolves.toBe(4);
    expect(seen).toEqual([0.25, 0.5, 0.75, 1]);
    await expect(client.call('fail', null)).rejects.toMatchObject({
      remoteName: 'RangeError',
      message: 'bad input',
    });
  });

  it('cancels a call through its AbortSignal', async () => {
    const client = connected();
    const controller = new AbortController();
    const seen: number[] = [];
    const call = client.call(
      'slow',
      { blocks: 1000 },
      { signal: controller.signal, onProgress: (p) => seen.push(p) },
    );
    setTimeout(() => controller.abort(), 30);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    const countAtAbort = seen.length;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(seen.length).toBe(countAtAbort); // the worker stopped reporting: it really stopped
    expect(countAtAbort).toBeLessThan(1000);
    // The client stays usable after a cancel.
    await expect(client.call('slow', { blocks: 1 })).resolves.toBe(1);
  });

  it('tells onWorkerCrash listeners of each crash (the app reports it), until they stop listening', async () => {
    const target = new EventTarget();
    const endpoint: RpcEndpoint = {
      postMessage: () => {},
      addEventListener: (type, listener) => target.addEventListener(type, listener),
      removeEventListener: (type, listener) => target.removeEventListener(type, listener),
    };
    const heard: string[] = [];
    const stop = onWorkerCrash((error) => heard.push(error.message));
    const client = new RpcClient<TestApi>(endpoint);
    const pending = client.call('slow', { blocks: 1 });
    target.dispatchEvent(Object.assign(new Event('error'), { message: 'out of memory' }));
    await expect(pending).rejects.toBeInstanceOf(WorkerCrashedError);
    expect(heard).toEqual(['Worker crashed: out of memory']);
    stop();
    const other = new RpcClient<TestApi>(endpoint);
    target.dispatchEvent(new Event('messageerror'));
    expect(other.failure).toBeInstanceOf(WorkerCrashedError);
    expect(heard).toHaveLength(1);
  });

  it('rejects every pending call when the worker crashes, and refuses later calls', async () => {
    // A real thread that dies with an uncaught error on its first message. node:worker_threads is loaded
    // dynamically and typed locally because this folder is type-checked with browser types only.
    const { Worker } = (await import('node:worker_threads' as string)) as { Worker: NodeWorkerConstructor };
    const worker = new Worker(
      "require('node:worker_threads').parentPort.on('message', () => { setTimeout(() => { throw new Error('boom'); }, 10); });",
      { eval: true },
    );
    // Node's Worker is an EventEmitter: adapt it to the browser's EventTarget shape the client expects.
    const target = new EventTarget();
    worker.on('message', (data: unknown) => target.dispatchEvent(new MessageEvent('message', { data })));
    worker.on('error', (error: Error) => {
      const event = new Event('error') as Event & { message: string };
      event.message = error.message;
      target.dispatchEvent(event);
    });
    const endpoint: RpcEndpoint = {
      postMessage: (message, transfer) => worker.postMessage(message, transfer),
      addEventListener: (type, listener) => target.addEventListener(type, listener),
      removeEventListener: (type, listener) => target.removeEventListener(type, listener),
    };
    const client = new RpcClient<TestApi>(endpoint, { terminate: () => void worker.terminate() });
    const calls = [client.call('slow', { blocks: 1 }), client.call('slow', { blocks: 2 })];
    for (const call of calls) await expect(call).rejects.toBeInstanceOf(WorkerCrashedError);
    await expect(calls[0]).rejects.toThrow(/boom/);
    await expect(client.call('slow', { blocks: 1 })).rejects.toBeInstanceOf(WorkerCrashedError);
    expect(client.pendingCount).toBe(0);
  });
});
