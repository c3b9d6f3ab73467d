/**
 * Lets a long job in a worker give its event loop a turn, so a 'cancel' message can arrive between blocks.
 * A MessageChannel round trip is used rather than setTimeout(0), which browsers clamp to 4 ms once nested;
 * one channel serves every yield (a new channel per yield costs more than the yield itself). Node (the
 * tests serve the handlers over MessageChannels) answers that ping before other ports' messages, so a
 * cancel never got in there: it has setImmediate, which yields to all of them.
 */
let channel: MessageChannel | null = null;
const waiting: (() => void)[] = [];
const setImmediateIfAny = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;

export const yieldToEventLoop = (): Promise<void> =>
  new Promise((resolve) => {
    if (setImmediateIfAny) {
      setImmediateIfAny(resolve);
      return;
    }
    if (!channel) {
      channel = new MessageChannel();
      channel.port1.onmessage = () => waiting.shift()?.();
      // Node keeps a process alive while a port listens; a worker or page does not care.
      (channel.port1 as { unref?: () => void }).unref?.();
    }
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });

/** Yield at most every `intervalMs`: cancellation stays prompt without paying for a yield per block. */
export const yieldEvery = (intervalMs = 8): (() => Promise<void>) => {
  let last = performance.now();
  return async () => {
    const now = performance.now();
    if (now - last < intervalMs) return;
    await yieldToEventLoop();
    last = performance.now();
  };
};

/**
 * Progress reports at most every `intervalMs` (each one is a message and a task on the page), always
 * passing the first, the last (`done`) and any for which `force` says it must not be dropped.
 */
export const throttleProgress = <P>(
  report: (p: P) => void,
  done: (p: P) => boolean,
  force: (p: P, previous: P | undefined) => boolean = () => false,
  intervalMs = 50,
): ((p: P) => void) => {
  let last = Number.NEGATIVE_INFINITY;
  let previous: P | undefined;
  return (p) => {
    const now = performance.now();
    if (now - last >= intervalMs || done(p) || force(p, previous)) {
      last = now;
      report(p);
    }
    previous = p;
  };
};
