import type {
  GenreSuggestion,
  MixStage,
  MixStyleId,
  PeakLevel,
  TrackType,
  VocalAnalysis,
  VocalChainAmounts,
  VocalChainReport,
  VocalChainStage,
} from '../../../audio';
import { VOCAL_CHAIN_STAGES } from '../../../audio';
import type { Genre } from '../../../shared/genres';
import { DEFAULT_PITCH_SETTINGS, type PitchSettings } from '../../../shared/pitch-settings';
import type { UploadProgress } from '../../lib/upload-progress';

/** Spec 2: the upload boxes' volumes start at 75 (vocals) and 50 (instrumental). */
export const DEFAULT_TRACK_VOLUME: Record<TrackType, number> = { vocals: 75, instrumental: 50 };
/** The output volume a new session starts with (the sessions API's default as well). */
export const DEFAULT_OUTPUT_VOLUME = 80;
/** Before a style is chosen the final mix weighs vocals and instrumental 0.5 each (spec 9). */
export const BASE_VOCAL_SHARE = 50;

export type SlotStatus = 'empty' | 'queued' | 'processing' | 'loaded';

export interface TrackSlot {
  readonly status: SlotStatus;
  readonly fileName: string | null;
  readonly durationSeconds: number;
  /** Waveform peaks of the whole source at its own rate (`fileRate`). */
  readonly peaks: readonly PeakLevel[] | null;
  readonly fileRate: number;
  /** Id of the copy saved through POST /api/tracks, once saved. */
  readonly trackId: number | null;
  /** 0..100, live playback level of this track. */
  readonly volume: number;
  /** Saving the original through POST /api/tracks: progress, or why it stopped (retry keeps the file). */
  readonly upload: TrackUpload | null;
}

export type TrackUpload =
  | { readonly status: 'uploading'; readonly progress: UploadProgress }
  | { readonly status: 'saved' }
  | { readonly status: 'cancelled' }
  | { readonly status: 'failed'; readonly message: string };

export type PreviewStatus = 'idle' | 'rendering' | 'ready' | 'failed';

/** What the listening worker learned of one track (issue 26), or how far it has got. */
export interface Listening<T> {
  readonly status: 'idle' | 'listening' | 'ready' | 'failed';
  readonly fraction: number;
  readonly result: T | null;
}

const notListening = <T>(): Listening<T> => ({ status: 'idle', fraction: 0, result: null });

/** The mixer flow around the engine: uploads, previews, mixdown, final mix (the engine owns the timeline). */
export interface FlowState {
  readonly tracks: Readonly<Record<TrackType, TrackSlot>>;
  /** Apply Sequence was pressed since the tracks last changed. */
  readonly applied: boolean;
  readonly previews: { readonly status: PreviewStatus; readonly fraction: number };
  /** What the buffer player is playing: 'final' or a style id. */
  readonly playing: 'final' | MixStyleId | null;
  readonly style: MixStyleId | null;
  readonly vocalShare: number;
  readonly outputVolume: number;
  /** The genre the user picked at the mix-style step; null follows the beat's suggestion (decision 186). */
  readonly genre: Genre | null;
  /** The beat's analysis and the genre it suggests. */
  readonly beat: Listening<GenreSuggestion>;
  /** The vocal take's analysis, shown in plain words. */
  readonly vocal: Listening<VocalAnalysis>;
  /** Issue 27: the vocal's pitch correction (amount 0 = off). */
  readonly pitch: PitchSettings;
  /**
   * Issue 26's manual mode: each adaptive stage's amount, 0..100 (100: as the analysis planned it), set in
   * "Adjust" under "What the mix did" and used by the next mixdown and previews.
   */
  readonly vocalChain: Readonly<Record<VocalChainStage, number>>;
  readonly mixdown: { readonly running: boolean; readonly stage: MixStage | null; readonly fraction: number };
  readonly finalMix: {
    readonly durationSeconds: number;
    readonly trackId: number | null;
    /** The genre this mix was made for: the mastering page's default for it. */
    readonly genre: Genre | null;
    /** What the adaptive vocal chain did in this mix (issue 26); null for the fixed chain. */
    readonly report: VocalChainReport | null;
  } | null;
  readonly downloading: boolean;
}

const emptySlot = (type: TrackType): TrackSlot => ({
  status: 'empty',
  fileName: null,
  durationSeconds: 0,
  peaks: null,
  fileRate: 0,
  trackId: null,
  volume: DEFAULT_TRACK_VOLUME[type],
  upload: null,
});

export const clearedSlot = (slot: TrackSlot, type: TrackType): TrackSlot => ({
  ...emptySlot(type),
  volume: slot.volume,
});

export const initialFlow = (): FlowState => ({
  tracks: { vocals: emptySlot('vocals'), instrumental: emptySlot('instrumental') },
  applied: false,
  previews: { status: 'idle', fraction: 0 },
  playing: null,
  style: null,
  vocalShare: BASE_VOCAL_SHARE,
  outputVolume: DEFAULT_OUTPUT_VOLUME,
  genre: null,
  beat: notListening(),
  vocal: notListening(),
  pitch: DEFAULT_PITCH_SETTINGS,
  vocalChain: FULL_VOCAL_CHAIN,
  mixdown: { running: false, stage: null, fraction: 0 },
  finalMix: null,
  downloading: false,
});

export const FULL_VOCAL_CHAIN: Readonly<Record<VocalChainStage, number>> = Object.fromEntries(
  VOCAL_CHAIN_STAGES.map((s) => [s, 100]),
) as Record<VocalChainStage, number>;

/**
 * The render's amounts (0..1) for the stages turned down; undefined while every stage is at 100, so an
 * untouched chain renders exactly as it did before the manual mode existed.
 */
export const vocalChainAmounts = (s: FlowState): VocalChainAmounts | undefined => {
  const down = VOCAL_CHAIN_STAGES.filter((stage) => s.vocalChain[stage] < 100);
  return down.length
    ? Object.fromEntries(down.map((stage) => [stage, s.vocalChain[stage] / 100]))
    : undefined;
};

/** The inverse, for a saved session or mix: its stages turned down, the rest as planned (null: all). */
export const vocalChainOf = (
  amounts: VocalChainAmounts | null | undefined,
): Readonly<Record<VocalChainStage, number>> =>
  Object.fromEntries(
    VOCAL_CHAIN_STAGES.map((stage) => [stage, Math.round((amounts?.[stage] ?? 1) * 100)]),
  ) as Record<VocalChainStage, number>;

export const bothLoaded = (s: FlowState): boolean =>
  s.tracks.vocals.status === 'loaded' && s.tracks.instrumental.status === 'loaded';

/** The genre the mix aims at: the user's pick, else the suggestion, else none yet (the chain's default). */
export const effectiveGenre = (s: FlowState): Genre | null => s.genre ?? s.beat.result?.genre ?? null;

export const clearedListening = notListening;

export const isBusy = (slot: TrackSlot): boolean => slot.status === 'processing' || slot.status === 'queued';

/** A minimal external store: immutable snapshots for useSyncExternalStore. */
export class Store<T> {
  #state: T;
  #listeners = new Set<() => void>();

  constructor(initial: T) {
    this.#state = initial;
  }

  getState = (): T => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  update(fn: (s: T) => T): void {
    const next = fn(this.#state);
    if (next === this.#state) return;
    this.#state = next;
    for (const listener of this.#listeners) listener();
  }
}
