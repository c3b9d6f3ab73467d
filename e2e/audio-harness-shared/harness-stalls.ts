/**
 * How long the page's main thread was blocked while a job ran. `longestMs`: the largest gap between heartbeats
 * of a setTimeout loop or the longest 'longtask' entry Chromium reports, whichever is larger. `longTaskMs`
 * alone: the longest task the main thread itself ran (the heartbeat gap also counts time the OS gave the CPU
 * to someone else).
 */
export const measureStalls = async <T>(
  job: () => Promise<T>,
): Promise<{ result: T; ms: number; longestMs: number; longTaskMs: number }> => {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const beat = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setTimeout(beat, 0);
  };
  setTimeout(beat, 0);
  let longTask = 0;
  const observer =
    typeof PerformanceObserver !== 'undefined' &&
    PerformanceObserver.supportedEntryTypes?.includes('longtask')
      ? new PerformanceObserver((list) => {
          for (const e of list.getEntries()) longTask = Math.max(longTask, e.duration);
        })
      : null;
  observer?.observe({ type: 'longtask' });
  const start = performance.now();
  const result = await job();
  const ms = performance.now() - start;
  running = false;
  beat();
  observer?.disconnect();
  return { result, ms, longestMs: Math.max(longest, longTask), longTaskMs: longTask };
};
