/**
 * Key and scale (decision 193). The beat's chroma, summed over the whole beat with each frame normalised (a
 * loud drum frame counts no more than a quiet pad), is correlated with the 24 rotations of two key profiles —
 * Krumhansl–Kessler's probe-tone ratings and Temperley's corpus frequencies — and the two correlations are
 * averaged. A profile correlation tells the scale well but a key from its relative poorly (C major and A
 * minor share their notes), so the pair is then decided by the tonic's weight in the bass and by the
 * cadences: the chord on the first and last downbeats and dominant-to-tonic root motions between bars.
 */
import type { KeyMode, SongKey } from '../../model/song-facts';
import type { Chromagram } from './features';

const KK_MAJOR = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const KK_MINOR = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];
const T_MAJOR = [0.748, 0.06, 0.488, 0.082, 0.67, 0.46, 0.096, 0.715, 0.104, 0.366, 0.057, 0.4];
const T_MINOR = [0.712, 0.084, 0.474, 0.618, 0.049, 0.46, 0.105, 0.747, 0.404, 0.067, 0.133, 0.33];

const correlate = (a: ArrayLike<number>, b: ArrayLike<number>, rotate: number): number => {
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < 12; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= 12;
  mb /= 12;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < 12; i++) {
    const x = a[(i + rotate) % 12]! - ma;
    const y = b[i]! - mb;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  return da === 0 || db === 0 ? 0 : num / Math.sqrt(da * db);
};

export interface KeyEstimate {
  key: SongKey;
  confidence: number;
  /** The key the profiles alone preferred when the bass and cadences overturned it for its relative. */
  relativeOf?: SongKey;
  scores: { key: SongKey; score: number }[];
}

export const relativeKey = (key: SongKey): SongKey =>
  key.mode === 'major'
    ? { tonic: (key.tonic + 9) % 12, mode: 'minor' }
    : { tonic: (key.tonic + 3) % 12, mode: 'major' };

const frameSum = (
  values: Float32Array,
  frames: number,
  from: number,
  to: number,
  normalise: boolean,
): Float64Array => {
  const out = new Float64Array(12);
  for (let f = Math.max(0, from); f < Math.min(frames, to); f++) {
    let total = 0;
    for (let pc = 0; pc < 12; pc++) total += values[f * 12 + pc]!;
    if (total <= 0) continue;
    const scale = normalise ? 1 / total : 1;
    for (let pc = 0; pc < 12; pc++) out[pc] += values[f * 12 + pc]! * scale;
  }
  return out;
};

/**
 * Each pitch class's median over a bar's frames, every frame normalised: a crash cymbal or a fill on a few
 * frames does not change the bar's chord.
 */
const frameMedian = (values: Float32Array, frames: number, from: number, to: number): Float64Array => {
  const out = new Float64Array(12);
  const rows: number[][] = Array.from({ length: 12 }, () => []);
  for (let f = Math.max(0, from); f < Math.min(frames, to); f++) {
    let total = 0;
    for (let pc = 0; pc < 12; pc++) total += values[f * 12 + pc]!;
    if (total <= 0) continue;
    for (let pc = 0; pc < 12; pc++) rows[pc]!.push(values[f * 12 + pc]! / total);
  }
  for (let pc = 0; pc < 12; pc++) {
    const r = rows[pc]!.sort((a, b) => a - b);
    out[pc] = r.length ? r[r.length >> 1]! : 0;
  }
  return out;
};

/** Best major or minor triad of a chroma vector: its root and mode, by triad template correlation. */
const triadOf = (v: ArrayLike<number>): { root: number; mode: KeyMode; fit: number } => {
  let best = { root: 0, mode: 'major' as KeyMode, fit: Number.NEGATIVE_INFINITY };
  for (let root = 0; root < 12; root++) {
    for (const mode of ['major', 'minor'] as const) {
      const template = new Array(12).fill(0);
      template[0] = 1;
      template[mode === 'major' ? 4 : 3] = 1;
      template[7] = 1;
      const fit = correlate(v, template, root);
      if (fit > best.fit) best = { root, mode, fit };
    }
  }
  return best;
};

const MAJOR_TRIADS: [number, KeyMode][] = [
  [0, 'major'],
  [2, 'minor'],
  [4, 'minor'],
  [5, 'major'],
  [7, 'major'],
  [9, 'minor'],
];
const MINOR_TRIADS: [number, KeyMode][] = [
  [0, 'minor'],
  [3, 'major'],
  [5, 'minor'],
  [7, 'minor'],
  [7, 'major'],
  [8, 'major'],
  [10, 'major'],
];

/**
 * How well the bars' chords belong to a key: its tonic triad counts most, the dominant and subdominant
 * next, other diatonic triads a little, and a chord outside the key counts against it.
 */
const chordFit = (chords: readonly { root: number; mode: KeyMode }[], key: SongKey): number => {
  if (chords.length === 0) return 0;
  const triads = key.mode === 'major' ? MAJOR_TRIADS : MINOR_TRIADS;
  let sum = 0;
  for (const c of chords) {
    const degree = (c.root - key.tonic + 12) % 12;
    if (degree === 0 && c.mode === key.mode) sum += 1;
    else if ((degree === 7 && c.mode === 'major') || (degree === 5 && c.mode === key.mode)) sum += 0.6;
    else if (triads.some(([d, m]) => d === degree && m === c.mode)) sum += 0.3;
    else sum -= 0.7;
  }
  return sum / chords.length;
};

export interface BarTiming {
  downbeatSeconds: number;
  barSeconds: number;
}

export const estimateKey = (chroma: Chromagram, bars?: BarTiming): KeyEstimate => {
  const total = frameSum(chroma.notes, chroma.frames, 0, chroma.frames, true);
  const bass = frameSum(chroma.bass, chroma.frames, 0, chroma.frames, false);
  const scores: { key: SongKey; score: number }[] = [];
  for (let tonic = 0; tonic < 12; tonic++) {
    for (const mode of ['major', 'minor'] as const) {
      const kk = correlate(total, mode === 'major' ? KK_MAJOR : KK_MINOR, tonic);
      const t = correlate(total, mode === 'major' ? T_MAJOR : T_MINOR, tonic);
      scores.push({ key: { tonic, mode }, score: (kk + t) / 2 });
    }
  }
  scores.sort((a, b) => b.score - a.score);
  // The relative pair shares a scale: decide it by tonic evidence.
  const barChords: { root: number; mode: KeyMode }[] = [];
  if (bars && bars.barSeconds > 0) {
    const perFrame = chroma.hopSeconds;
    for (
      let start = bars.downbeatSeconds;
      start + bars.barSeconds <= chroma.frames * perFrame;
      start += bars.barSeconds
    ) {
      const v = frameMedian(
        chroma.notes,
        chroma.frames,
        Math.round(start / perFrame),
        Math.round((start + bars.barSeconds) / perFrame),
      );
      barChords.push(triadOf(v));
    }
  }
  const bassTotal = bass.reduce((s, x) => s + x, 0) || 1;
  const evidence = (key: SongKey): number => {
    let e = (3 * bass[key.tonic]!) / bassTotal;
    if (barChords.length > 0) {
      const isTonic = (c: { root: number; mode: KeyMode }) => c.root === key.tonic && c.mode === key.mode;
      if (isTonic(barChords[0]!)) e += 1;
      if (isTonic(barChords[barChords.length - 1]!)) e += 0.5;
      let tonicBars = 0;
      let cadences = 0;
      for (let i = 0; i < barChords.length; i++) {
        if (isTonic(barChords[i]!)) tonicBars++;
        const next = barChords[(i + 1) % barChords.length]!;
        if (barChords[i]!.root === (key.tonic + 7) % 12 && isTonic(next)) cadences++;
      }
      e += tonicBars / barChords.length + (2 * cadences) / barChords.length;
    }
    return e;
  };
  // The scale: the profiles plus how well the bar chords fit each key's harmony. Then the key against its
  // relative (same notes): the tonic evidence of the bass, the first and last bars and the cadences.
  const fitted = scores.map(({ key: k, score }) => ({ key: k, score: score + 0.4 * chordFit(barChords, k) }));
  fitted.sort((a, b) => b.score - a.score);
  const scaleBest = fitted[0]!.key;
  const finals = fitted.map(({ key: k, score }) => ({ key: k, score: score + 0.5 * evidence(k) }));
  const scoreOf = (k: SongKey) => finals.find((x) => x.key.tonic === k.tonic && x.key.mode === k.mode)!.score;
  const scaleRelative = relativeKey(scaleBest);
  const key = scoreOf(scaleRelative) > scoreOf(scaleBest) ? scaleRelative : scaleBest;
  finals.sort((a, b) => b.score - a.score);
  const chooseRelative = key.tonic === scaleRelative.tonic && key.mode === scaleRelative.mode;
  // Confidence: how far the winner stands above the best key that is neither it nor its relative, and how
  // clearly it beat its relative.
  const rel = relativeKey(key);
  const isKey = (a: SongKey, b: SongKey) => a.tonic === b.tonic && a.mode === b.mode;
  const relScore = scoreOf(rel);
  const scaleMargin =
    fitted[0]!.score - (fitted.find((x) => !isKey(x.key, key) && !isKey(x.key, rel))?.score ?? 0);
  const pairMargin = scoreOf(key) - relScore;
  const confidence = Math.max(
    0,
    Math.min(1, 0.5 * Math.min(1, scaleMargin * 2) + 0.5 * Math.min(1, pairMargin * 2)),
  );
  return { key, confidence, ...(chooseRelative ? { relativeOf: scaleBest } : {}), scores };
};
