import { yieldToEventLoop } from '../event-loop';

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
