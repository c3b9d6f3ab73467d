/**
 * Issue 26: the vocal analysis in plain words, one finding per thing the chain will act on, each with its
 * numbers one click away (decision 187). Pure: the panel renders these, the unit test reads them.
 */
import { type BalanceBand, type VocalAnalysis, vocalTargetFor } from '../../../../audio';
import { GENRE_LABELS, type Genre } from '../../../../shared/genres';
import { formatTime } from '../timeline/time-format';

export interface Finding {
  id: 'noise' | 'breaths' | 'sibilance' | 'phrases' | `balance-${BalanceBand}` | 'peaks';
  /** The sentence shown, e.g. "Steady hiss around −52 dBFS — we'll clean it". */
  text: string;
  /** True when the chain will change something for it. */
  acts: boolean;
  /** What the chain will do, in a few words for the panel's first sentence ("lower 4 breaths"). */
  fix?: string;
  numbers: { label: string; value: string }[];
}

/** Below this the pauses are quiet enough that cleaning them would only risk the voice. */
const CLEAN_FLOOR_DB = -70;
/** A phrase this far under the median is ridden up (the issue's quiet phrase is 8 dB under). */
const QUIET_PHRASE_DB = 3;
/** A balance band this far off the genre's target is worth an EQ move. */
const BALANCE_DB = 3;

const minus = (x: number) => (x < 0 ? `−${Math.abs(x)}` : `${x}`);
const db = (x: number, digits = 0) => `${minus(Number(x.toFixed(digits)))} dB`;
const dbfs = (x: number) => `${minus(Math.round(x))} dBFS`;
const kilo = (hz: number) => `${Number((hz / 1000).toFixed(1))}`;
const hzText = (hz: number) => (hz >= 1000 ? `${kilo(hz)} kHz` : `${Math.round(hz)} Hz`);
/** "6–9 kHz", "150–350 Hz", "800 Hz–1.5 kHz". */
const range = (lo: number, hi: number) =>
  lo >= 1000
    ? `${kilo(lo)}–${kilo(hi)} kHz`
    : hi < 1000
      ? `${Math.round(lo)}–${Math.round(hi)} Hz`
      : `${hzText(lo)}–${hzText(hi)}`;

/** Hum when most of the pause's energy sits under 300 Hz; hiss otherwise. */
const noiseKind = (a: VocalAnalysis): 'hum' | 'hiss' => {
  const { magnitudesDb, fftSize, sampleRate } = a.noisePrint;
  let low = 0;
  let all = 0;
  magnitudesDb.forEach((m, k) => {
    const p = 10 ** (m / 10);
    all += p;
    if ((k * sampleRate) / fftSize < 300) low += p;
  });
  return all > 0 && low / all > 0.5 ? 'hum' : 'hiss';
};

const BALANCE_WORDS: Record<
  BalanceBand,
  { over: string; under: string; overNoun: string; underNoun: string }
> = {
  mud: { over: 'Muddy', under: 'Thin low body', overNoun: 'mud', underNoun: 'low body' },
  boxiness: { over: 'Boxy', under: 'Hollow low mids', overNoun: 'boxiness', underNoun: 'low mids' },
  nasal: { over: 'Nasal', under: 'Recessed mids', overNoun: 'nasal tone', underNoun: 'mids' },
  harsh: { over: 'Harsh', under: 'Dull presence', overNoun: 'harshness', underNoun: 'presence' },
  air: { over: 'Airy to the point of fizz', under: 'Little air', overNoun: 'fizz', underNoun: 'air' },
};

export const vocalFindings = (a: VocalAnalysis, genre: Genre): Finding[] => {
  const out: Finding[] = [];
  const kind = noiseKind(a);
  const cleans = a.noiseFloorDb > CLEAN_FLOOR_DB;
  out.push({
    id: 'noise',
    text: cleans
      ? `Steady ${kind} around ${dbfs(a.noiseFloorDb)} — we'll clean it`
      : `Quiet background (${dbfs(a.noiseFloorDb)}) — nothing to clean`,
    acts: cleans,
    ...(cleans ? { fix: `clean the ${kind}` } : {}),
    numbers: [
      { label: 'Noise floor (pauses, RMS)', value: dbfs(a.noiseFloorDb) },
      { label: 'Noise print learned from', value: `${(a.noisePrint.frames / 100).toFixed(1)} s of pauses` },
      { label: 'Kind', value: kind },
    ],
  });

  if (a.breaths.length > 0) {
    out.push({
      id: 'breaths',
      text: `${a.breaths.length} breath${a.breaths.length === 1 ? '' : 's'} — we'll lower them, not remove them`,
      acts: true,
      fix: `lower ${a.breaths.length === 1 ? 'one breath' : `${a.breaths.length} breaths`}`,
      numbers: a.breaths.slice(0, 8).map((b, i) => ({
        label: `Breath ${i + 1}`,
        value: `${formatTime(b.start)}–${formatTime(b.end)}`,
      })),
    });
  }

  const s = a.sibilance;
  if (s.frames > 0) {
    const band = range(s.loHz, s.hiHz);
    out.push({
      id: 'sibilance',
      text:
        s.hotDb >= 0.5
          ? `Sibilance at ${band}, ${db(s.hotDb)} hot — we'll de-ess that band`
          : s.hotDb > -0.5
            ? `Sibilance at ${band}, as loud as the vowels — we'll de-ess that band`
            : `Sibilance at ${band}, ${db(-s.hotDb)} under the vowels — a light de-ess`,
      acts: true,
      fix: s.hotDb >= 0.5 ? "tame the sharp 's' sounds" : "soften the 's' sounds a little",
      numbers: [
        {
          label: 'Sibilant band',
          value: `${Math.round(s.loHz)}–${Math.round(s.hiHz)} Hz (peak ${Math.round(s.peakHz)} Hz)`,
        },
        { label: 'Sibilant peaks over the vowels', value: db(s.hotDb, 1) },
        { label: 'Sibilant frames', value: `${s.frames} (10 ms each)` },
      ],
    });
  }

  if (a.phrases.length > 0) {
    const quiet = a.phrases.filter((p) => p.levelDb < a.phraseMedianDb - QUIET_PHRASE_DB);
    const deepest = Math.max(0, ...quiet.map((p) => a.phraseMedianDb - p.levelDb));
    out.push({
      id: 'phrases',
      text:
        quiet.length === 0
          ? `${a.phrases.length} phrase${a.phrases.length === 1 ? '' : 's'} at an even level (within ${db(a.phraseSpreadDb)})`
          : quiet.length === 1
            ? `One phrase ${db(deepest)} quieter than the rest — we'll ride it up`
            : `${quiet.length} phrases up to ${db(deepest)} quieter than the rest — we'll ride them up`,
      acts: quiet.length > 0,
      ...(quiet.length > 0
        ? { fix: `lift ${quiet.length === 1 ? 'one quiet phrase' : `${quiet.length} quiet phrases`}` }
        : {}),
      numbers: [
        { label: 'Median phrase level', value: dbfs(a.phraseMedianDb) },
        { label: 'Spread of phrase levels', value: db(a.phraseSpreadDb, 1) },
        ...a.phrases.slice(0, 8).map((p, i) => ({
          label: `Phrase ${i + 1} (${formatTime(p.start)})`,
          value: `${p.levelDb.toFixed(1)} dBFS`,
        })),
      ],
    });
  }

  // Balance against the chosen genre's target: re-read here, so a new genre needs no new analysis.
  const target = vocalTargetFor(genre).curve;
  for (const b of a.balance) {
    const off = b.levelDb - target[b.band];
    if (Math.abs(off) < BALANCE_DB) continue;
    const words = BALANCE_WORDS[b.band];
    out.push({
      id: `balance-${b.band}`,
      text: `${off > 0 ? words.over : words.under}: ${range(b.loHz, b.hiHz)} ${db(Math.abs(off))} ${
        off > 0 ? 'over' : 'under'
      } the ${GENRE_LABELS[genre]} target — we'll ${off > 0 ? 'cut' : 'lift'} it`,
      acts: true,
      fix: `${off > 0 ? 'cut the' : 'lift the'} ${off > 0 ? words.overNoun : words.underNoun}`,
      numbers: [
        { label: 'Band level against 1–2 kHz', value: db(b.levelDb, 1) },
        { label: `${GENRE_LABELS[genre]} target`, value: db(target[b.band], 1) },
      ],
    });
  }

  const clipped = a.clipped.length;
  out.push({
    id: 'peaks',
    text:
      clipped > 0
        ? `Clipped in ${clipped} place${clipped === 1 ? '' : 's'} (first at ${formatTime(a.clipped[0]!.start)}) — we'll repair ${clipped === 1 ? 'it' : 'them'}`
        : `Peaks at ${a.truePeakDbtp.toFixed(1).replace('-', '−')} dBTP, no clipping`,
    acts: clipped > 0,
    ...(clipped > 0
      ? { fix: `repair ${clipped === 1 ? 'one clipped spot' : `${clipped} clipped spots`}` }
      : {}),
    numbers: [
      { label: 'True peak', value: `${a.truePeakDbtp.toFixed(1).replace('-', '−')} dBTP` },
      { label: 'Clipped runs', value: `${clipped}` },
      { label: 'Crest factor (voiced)', value: db(a.crestDb, 1) },
    ],
  });
  return out;
};
