/**
 * Bytes sent, speed and time left of an upload, from the browser's progress events. The speed is measured
 * over the last few seconds (not since the start), so it follows a connection that changes pace; no speed
 * or time left is claimed before half a second of samples exists.
 */
export interface UploadProgress {
  sent: number;
  total: number;
  /** Bytes per second over the recent window, null until measurable. */
  bytesPerSecond: number | null;
  /** Seconds until done at that speed, null until measurable. */
  secondsLeft: number | null;
}

const WINDOW_MS = 3000;
const MIN_SPAN_MS = 500;

export class ProgressMeter {
  #samples: { at: number; sent: number }[] = [];

  constructor(readonly total: number) {}

  sample(sent: number, at: number): UploadProgress {
    this.#samples.push({ at, sent });
    while (this.#samples.length > 2 && at - this.#samples[1]!.at >= WINDOW_MS) this.#samples.shift();
    const first = this.#samples[0]!;
    const span = at - first.at;
    const bytesPerSecond = span >= MIN_SPAN_MS ? ((sent - first.sent) * 1000) / span : null;
    const secondsLeft =
      bytesPerSecond && bytesPerSecond > 0 ? Math.max(0, this.total - sent) / bytesPerSecond : null;
    return { sent, total: this.total, bytesPerSecond, secondsLeft };
  }
}

const units = ['B', 'kB', 'MB', 'GB'];

/** 1 234 567 → '1.2 MB' (decimal units, as file managers show sizes). */
export const formatBytes = (bytes: number): string => {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
};

/** '3.4 MB of 9.8 MB · 420 kB/s · 15 s left' (speed and time once measured). */
export const describeProgress = (p: UploadProgress): string => {
  const parts = [`${formatBytes(p.sent)} of ${formatBytes(p.total)}`];
  if (p.bytesPerSecond !== null) parts.push(`${formatBytes(p.bytesPerSecond)}/s`);
  if (p.secondsLeft !== null)
    parts.push(
      p.secondsLeft >= 60
        ? `${Math.ceil(p.secondsLeft / 60)} min left`
        : `${Math.ceil(p.secondsLeft)} s left`,
    );
  return parts.join(' · ');
};
