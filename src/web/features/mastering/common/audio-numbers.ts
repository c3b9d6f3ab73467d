/** How the mastering panels print audio numbers: one decimal, a real minus sign, -∞ for silence. */

/** A level or a change in dB, e.g. "-14.0"; "-∞" for silence. */
export const db = (v: number, digits = 1): string =>
  Number.isFinite(v) ? v.toFixed(digits).replace('-', '−') : v > 0 ? '+∞' : '−∞';

/** A change with its sign, e.g. "+3.0", "−5.0", "±0.0". */
export const signedDb = (v: number, digits = 1): string => {
  if (!Number.isFinite(v)) return v > 0 ? '+∞' : '−∞';
  const rounded = Number(v.toFixed(digits));
  return `${rounded > 0 ? '+' : rounded < 0 ? '−' : '±'}${Math.abs(rounded).toFixed(digits)}`;
};

/** A share 0..1 as a whole percentage. */
export const percent = (share: number): string => `${Math.round(share * 100)} %`;

/** A frequency as the EQ tables label it: 63, 125 … 1k, 16k. */
export const hz = (f: number): string => (f >= 1000 ? `${f / 1000}k` : `${f}`);

/** Correlation 0.9 and above folds down to mono without losing bass (decision 110). */
export const monoVerdict = (correlation: number): string =>
  correlation >= 0.9 ? 'safe' : correlation >= 0 ? 'partly wide' : 'cancels';
