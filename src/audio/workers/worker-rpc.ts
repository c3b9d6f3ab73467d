/**
 * A small typed request/response protocol over a Worker (or any MessagePort-like endpoint).
 *
 * - every call carries a correlation id; replies (progress, result, error) are routed by it;
 * - channel data moves as transferred buffers (caller passes `transfer`, a handler returns `transferring(...)`);
 * - an AbortSignal cancels a call: the caller's promise rejects at once and the worker's handler sees its
 *   own signal abort, so it can stop between blocks;
 * - a crashed worker (an `error` or `messageerror` event) rejects every pending call, and the client refuses
 *   further calls; `RespawningRpcClient` starts a fresh worker for the next call instead.
 *
 * The protocol is described by a type mapping method names to request, response and progress types:
 * ```ts
 * interface MeterApi { measure: { request: { channels: Float32Array[] }; response: Report; progress: number } }
 * const client = new RpcClient<MeterApi>(new Worker(new URL('./meter.worker.ts', import.meta.url), { type: 'module' }));
 * serveRpc<MeterApi>(self as unknown as RpcEndpoint, { measure: async (req, ctx) => ... });
 * ```
 */
import { holdAtGate, type PauseGate } from './pause-gate';

export interface RpcMethodSpec {
  request: unknown;
  response: unknown;
  progress: unknown;
}

/** What a protocol type must look like: every method is a request/response/progress triple. */
export type RpcSpec<T> = { [K in keyof T]: RpcMethodSpec };

/** The part of Worker / DedicatedWorkerGlobalScope / MessagePort the protocol needs. */
export interface RpcEndpoint {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
  /** MessagePorts need start() when listened to with addEventListener; Workers do not have it. */
  start?: () => void;
}

export type RpcRequestMessage =
  | { type: 'call'; id: number; method: string; request: unknown; gate?: PauseGate }
  | { type: 'cancel'; id: number };

export type RpcReplyMessage =
  | { type: 'progress'; id: number; progress: unknown }
  | { type: 'result'; id: number; response: unknown }
  | { type: 'error'; id: number; error: { name: string; message: string } };

/** The worker failed as a whole (uncaught error, failed to load, undecodable message). */
export class WorkerCrashedError extends Error {
  override name = 'WorkerCrashedError';
}

/** A handler threw: the error's name and message cross the boundary, its stack does not. */
export class RpcRemoteError extends Error {
  constructor(
    message: string,
    readonly remoteName: string,
  ) {
    super(message);
    this.name = remoteName === 'AbortError' ? 'AbortError' : 'RpcRemoteError';
  }
}

export interface RpcCallOptions<P> {
  signal?: AbortSignal;
  onProgress?: (progress: P) => void;
  /** Buffers to move (not copy) to the worker; they are detached on this side after the call. */
  transfer?: Transferable[];
  /** A background job's pause gate (pause-gate.ts): the handler holds at its checkpoints while it is closed. */
  gate?: PauseGate;
}

interface PendingCall {
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  onProgress?: (progress: unknown) => void;
  cleanup: () => void;
}

const abortReason = (signal: AbortSignal): unknown =>
  signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');

const crashListeners = new Set<(error: WorkerCrashedError) => void>();

/**
 * Lets the app hear of every worker crash, to report it (the engine itself does no I/O). Returns the
 * function that stops listening.
 */
export function onWorkerCrash(listener: (error: WorkerCrashedError) => void): () => void {
  crashListeners.add(listener);
  return () => crashListeners.delete(listener);
}

const crashed = (message: string): WorkerCrashedError => {
  const error = new WorkerCrashedError(message);
  for (const listener of crashListeners) listener(error);
  return error;
};

export class RpcClient<Spec extends RpcSpec<Spec>> {
  #endpoint: RpcEndpoint;
  #pending = new Map<number, PendingCall>();
  #nextId = 1;
  #failure: Error | null = null;
  #terminate: (() => void) | undefined;

  constructor(endpoint: RpcEndpoint, options: { terminate?: () => void } = {}) {
    this.#endpoint = endpoint;
    this.#terminate =
      options.terminate ??
      (typeof (endpoint as Partial<Worker>).terminate === 'function'
        ? () => (endpoint as Worker).terminate()
        : undefined);
    endpoint.addEventListener('message', this.#onMessage);
    endpoint.addEventListener('error', this.#onError);
    endpoint.addEventListener('messageerror', this.#onMessageError);
    endpoint.start?.();
  }

  /** The error that ended this client, or null while it is usable. */
  get failure(): Error | null {
    return this.#failure;
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  call<K extends keyof Spec & string>(
    method: K,
    request: Spec[K]['request'],
    options: RpcCallOptions<Spec[K]['progress']> = {},
  ): Promise<Spec[K]['response']> {
    if (this.#failure) return Promise.reject(this.#failure);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const id = this.#nextId++;
    return new Promise<Spec[K]['response']>((resolve, reject) => {
      const onAbort = () => {
        if (!this.#pending.delete(id)) return;
        this.#endpoint.postMessage({ type: 'cancel', id } satisfies RpcRequestMessage, []);
        reject(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        resolve: resolve as (value: unknown) => void,
        reject,
        onProgress: options.onProgress as ((progress: unknown) => void) | undefined,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
      try {
        this.#endpoint.postMessage(
          {
            type: 'call',
            id,
            method,
            request,
            ...(options.gate ? { gate: options.gate } : {}),
          } satisfies RpcRequestMessage,
          options.transfer ?? [],
        );
      } catch (error) {
        // DataCloneError and the like: nothing reached the worker.
        this.#settle(id)?.reject(error);
      }
    });
  }

  /** Rejects every pending call, stops listening and terminates the worker when there is one. */
  dispose(reason: Error = new Error('Worker client disposed')): void {
    this.#fail(reason);
    this.#endpoint.removeEventListener('message', this.#onMessage);
    this.#endpoint.removeEventListener('error', this.#onError);
    this.#endpoint.removeEventListener('messageerror', this.#onMessageError);
    this.#terminate?.();
  }

  #settle(id: number): PendingCall | undefined {
    const pending = this.#pending.get(id);
    if (!pending) return undefined;
    this.#pending.delete(id);
    pending.cleanup();
    return pending;
  }

  #fail(error: Error): void {
    if (!this.#failure) this.#failure = error;
    const calls = [...this.#pending.values()];
    this.#pending.clear();
    for (const call of calls) {
      call.cleanup();
      call.reject(error);
    }
  }

  #onMessage = (event: Event): void => {
    const message = (event as MessageEvent<RpcReplyMessage>).data;
    if (!message || typeof message.id !== 'number') return;
    if (message.type === 'progress') {
      this.#pending.get(message.id)?.onProgress?.(message.progress);
    } else if (message.type === 'result') {
      this.#settle(message.id)?.resolve(message.response);
    } else if (message.type === 'error') {
      this.#settle(message.id)?.reject(new RpcRemoteError(message.error.message, message.error.name));
    }
  };

  #onError = (event: Event): void => {
    const detail = (event as ErrorEvent).message;
    // Keep the page's console clean of the worker's own report; we turn it into rejections instead.
    event.preventDefault?.();
    this.#fail(crashed(detail ? `Worker crashed: ${detail}` : 'Worker crashed'));
    this.#terminate?.();
  };

  #onMessageError = (): void => {
    this.#fail(crashed('Worker sent a message that could not be decoded'));
    this.#terminate?.();
  };
}

/**
 * A client that starts its worker lazily and starts a fresh one for the next call after a crash
 * (the calls that were pending at the crash are still rejected).
 */
export class RespawningRpcClient<Spec extends RpcSpec<Spec>> {
  #factory: () => Worker;
  #client: RpcClient<Spec> | null = null;

  constructor(factory: () => Worker) {
    this.#factory = factory;
  }

  call<K extends keyof Spec & string>(
    method: K,
    request: Spec[K]['request'],
    options?: RpcCallOptions<Spec[K]['progress']>,
  ): Promise<Spec[K]['response']> {
    if (!this.#client || this.#client.failure) this.#client = new RpcClient<Spec>(this.#factory());
    return this.#client.call(method, request, options);
  }

  dispose(): void {
    this.#client?.dispose();
    this.#client = null;
  }
}

/** A handler's reply that moves buffers instead of copying them. */
export class Transferring<T> {
  constructor(
    readonly value: T,
    readonly transfer: Transferable[],
  ) {}
}

export const transferring = <T>(value: T, transfer: Transferable[]): Transferring<T> =>
  new Transferring(value, transfer);

/** The distinct buffers behind a set of typed arrays (two views on one buffer must be listed once). */
export const buffersOf = (arrays: readonly ArrayBufferView[]): ArrayBuffer[] => {
  const seen = new Set<ArrayBuffer>();
  for (const array of arrays) {
    if (array.buffer instanceof ArrayBuffer) seen.add(array.buffer);
  }
  return [...seen];
};

export interface RpcHandlerContext<P> {
  /** Aborts when the caller cancels. */
  signal: AbortSignal;
  /** Reports progress; holds first while the call's pause gate is closed (see `hold`). */
  progress(progress: P): void;
  /**
   * A checkpoint for long synchronous work: blocks while the call's pause gate is closed, returns at once
   * otherwise (and always for calls made without a gate). Call it between blocks of a few milliseconds.
   */
  hold(): void;
}

export type RpcHandlers<Spec extends RpcSpec<Spec>> = {
  [K in keyof Spec]: (
    request: Spec[K]['request'],
    context: RpcHandlerContext<Spec[K]['progress']>,
  ) =>
    | Spec[K]['response']
    | Transferring<Spec[K]['response']>
    | Promise<Spec[K]['response'] | Transferring<Spec[K]['response']>>;
};

const errorOf = (error: unknown): { name: string; message: string } =>
  error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };

/** Worker side: answers calls with the given handlers. Returns a function that stops serving. */
export const serveRpc = <Spec extends RpcSpec<Spec>>(
  endpoint: RpcEndpoint,
  handlers: RpcHandlers<Spec>,
): (() => void) => {
  const running = new Map<number, AbortController>();
  const reply = (message: RpcReplyMessage, transfer: Transferable[] = []) =>
    endpoint.postMessage(message, transfer);

  const onMessage = async (event: Event): Promise<void> => {
    const message = (event as MessageEvent<RpcRequestMessage>).data;
    if (!message || typeof message.id !== 'number') return;
    if (message.type === 'cancel') {
      running.get(message.id)?.abort(new DOMException('The operation was aborted.', 'AbortError'));
      return;
    }
    if (message.type !== 'call') return;
    const { id, method } = message;
    const handler = (handlers as Record<string, RpcHandlers<Spec>[keyof Spec] | undefined>)[method];
    if (!handler) {
      reply({ type: 'error', id, error: { name: 'TypeError', message: `Unknown method: ${method}` } });
      return;
    }
    const controller = new AbortController();
    running.set(id, controller);
    const hold = () => holdAtGate(message.gate);
    try {
      const outcome = await handler(message.request as never, {
        signal: controller.signal,
        progress: (progress) => {
          hold();
          if (!controller.signal.aborted) reply({ type: 'progress', id, progress });
        },
        hold,
      });
      if (outcome instanceof Transferring)
        reply({ type: 'result', id, response: outcome.value }, outcome.transfer);
      else reply({ type: 'result', id, response: outcome });
    } catch (error) {
      reply({ type: 'error', id, error: errorOf(error) });
    } finally {
      running.delete(id);
    }
  };
  const listener = (event: Event) => void onMessage(event);
  endpoint.addEventListener('message', listener);
  endpoint.start?.();
  return () => {
    endpoint.removeEventListener('message', listener);
    for (const controller of running.values()) controller.abort();
    running.clear();
  };
};

/** Throws the signal's reason when it has aborted; call between blocks of a long job. */
export const throwIfAborted = (signal: AbortSignal | undefined): void => {
  if (signal?.aborted) throw abortReason(signal);
};
