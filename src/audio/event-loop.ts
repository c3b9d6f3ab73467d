/**
 * One turn of the event loop, for long jobs that must let other work in between steps: a 'cancel' message
 * to a worker, or the page's input and rendering between the slices of a big copy.
 * A MessageChannel round trip is used rather than setTimeout(0), which browsers clamp to 4 ms once nested;
 * one channel serves every yield (a new channel per yield costs more than the yield itself). Node (the
 * tests serve the worker handlers over MessageChannels) answers that ping before other ports' messages, so a
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
