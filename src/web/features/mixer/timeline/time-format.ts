/** m:ss, or m:ss.t when tenths are asked for (timeline labels, clip positions). */
export const formatTime = (seconds: number, tenths = false): string => {
  const s = Math.max(0, Number.isFinite(seconds) ? seconds : 0);
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  const whole = Math.floor(rest);
  const base = `${m}:${String(whole).padStart(2, '0')}`;
  return tenths ? `${base}.${Math.floor((rest - whole) * 10)}` : base;
};

/** The scrub bar's labels: 0, 1/4, 1/2, 3/4 and the full duration (spec 2). */
export const SCRUB_LABEL_FRACTIONS = [0, 0.25, 0.5, 0.75, 1] as const;
export const scrubLabels = (duration: number): number[] => SCRUB_LABEL_FRACTIONS.map((f) => f * duration);
