/**
 * Where the spectrum picture draws (issue 30, decision 244): the spec's seven bands as steps over a
 * logarithmic frequency axis (20 Hz-20 kHz), levels on a dB axis fitted to both curves. Pure, so it is
 * tested without a canvas.
 */
export interface BandPoint {
  lowHz: number;
  highHz: number;
  levelDb: number;
}

export const AXIS_LOW_HZ = 20;
export const AXIS_HIGH_HZ = 20_000;
export const GRID_HZ = [50, 100, 200, 500, 1000, 2000, 5000, 10_000] as const;

/** x (0..width) of a frequency on the log axis. */
export const xOf = (hz: number, width: number): number =>
  (Math.log10(hz / AXIS_LOW_HZ) / Math.log10(AXIS_HIGH_HZ / AXIS_LOW_HZ)) * width;

/** The dB range to show: the finite levels of every curve, padded by 3 dB, at least 12 dB tall. */
export const dbRange = (curves: readonly (readonly BandPoint[])[]): { top: number; bottom: number } => {
  const levels = curves
    .flat()
    .map((b) => b.levelDb)
    .filter(Number.isFinite);
  if (levels.length === 0) return { top: 0, bottom: -60 };
  const top = Math.ceil(Math.max(...levels) + 3);
  const bottom = Math.min(Math.floor(Math.min(...levels) - 3), top - 12);
  return { top, bottom };
};

/** y (0..height) of a level in the range (top at 0). */
export const yOf = (db: number, range: { top: number; bottom: number }, height: number): number =>
  ((range.top - Math.max(range.bottom, Math.min(range.top, db))) / (range.top - range.bottom)) * height;

/** The polyline of a curve: a flat step across each band. */
export const stepPath = (
  bands: readonly BandPoint[],
  width: number,
  height: number,
  range: { top: number; bottom: number },
): [number, number][] =>
  bands.flatMap((b) => {
    const y = yOf(Number.isFinite(b.levelDb) ? b.levelDb : range.bottom, range, height);
    return [
      [xOf(Math.max(b.lowHz, AXIS_LOW_HZ), width), y],
      [xOf(Math.min(b.highHz, AXIS_HIGH_HZ), width), y],
    ] as [number, number][];
  });

export const hzLabel = (hz: number): string => (hz >= 1000 ? `${hz / 1000}k` : String(hz));
