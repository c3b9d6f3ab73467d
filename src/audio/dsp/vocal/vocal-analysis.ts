/**
 * Issue 26: the vocal analysis as data (what analyse-vocal.ts returns): plain JSON the analysis worker posts to
 * the page and the chain's stages read.
 */
import type { Genre } from '../../../shared/genres';
import type { BalanceBand } from './genre-vocal-targets';

/** Frame classes of the voiced/unvoiced map (numbers, so a 4-minute take is a small JSON array). */
export const FRAME_SILENCE = 0;
export const FRAME_VOICED = 1;
export const FRAME_UNVOICED = 2;
export const FRAME_BREATH = 3;
export type FrameClass = 0 | 1 | 2 | 3;

export interface TimeRange {
  start: number;
  end: number;
}

export interface LevelledRange extends TimeRange {
  /** RMS level of the range's active frames, dBFS. */
  levelDb: number;
}

export interface NoisePrint {
  /** The STFT the print belongs to: bin k is k * sampleRate / fftSize Hz. */
  fftSize: number;
  sampleRate: number;
  /** Mean magnitude per bin over the pause frames (Hann window, dB of the bin's RMS amplitude). */
  magnitudesDb: number[];
  /** How many 10 ms frames the print was learned from (0: no pauses, the print is a floor guess). */
  frames: number;
}

export interface SibilanceFinding {
  /** The singer's own sibilant band (the -6 dB points around the peak of the sibilant frames' spectrum). */
  loHz: number;
  hiHz: number;
  peakHz: number;
  /** 98th percentile of the band's 10 ms level over the vowels' (300 Hz-3 kHz, voiced frames) median level. */
  hotDb: number;
  /** Frames where the band dominates (the de-esser's work). */
  frames: number;
  /** Median level of the vowels (300 Hz-3 kHz on voiced frames), dBFS RMS: the de-esser's reference. */
  vowelMedianDb: number;
}

export interface BalanceFinding {
  band: BalanceBand;
  loHz: number;
  hiHz: number;
  /** Level relative to the voice's 1-2 kHz reference, dB per Hz, as measured. */
  levelDb: number;
  /** Measured minus the genre's target: positive means too much (mud +4 = 4 dB muddier than the target). */
  offTargetDb: number;
}

export interface VoicingMap {
  /** Hop between frames, seconds (10 ms); frame i is centred on i * hopSeconds. */
  hopSeconds: number;
  /** One FrameClass per frame. */
  classes: FrameClass[];
  /** Full-band RMS level per frame, dBFS (rounded to 0.1 dB). */
  levelsDb: number[];
}

export interface VocalAnalysis {
  sampleRate: number;
  durationSeconds: number;
  genre: Genre;
  /** Level the pauses sit at, dBFS (full band RMS). */
  noiseFloorDb: number;
  noisePrint: NoisePrint;
  breaths: TimeRange[];
  sibilance: SibilanceFinding;
  phrases: LevelledRange[];
  words: LevelledRange[];
  /** Median phrase level, dBFS: where the rider aims. */
  phraseMedianDb: number;
  /** Spread of the phrase levels (max - min), dB. */
  phraseSpreadDb: number;
  balance: BalanceFinding[];
  truePeakDbtp: number;
  /** Runs of three or more samples stuck at the take's peak (>= -0.3 dBFS). */
  clipped: TimeRange[];
  /** Peak-to-RMS of the voiced frames, dB: sets the compressor. */
  crestDb: number;
  voicing: VoicingMap;
}
