import { type MixerEngine, type SongFacts, SongFactsClient } from '../../../../audio';
import { type CoreBudget, pageCores } from '../../../lib/core-budget';
import { Store } from '../flow-state';
import { copyForTransfer } from '../upload/audio-buffers';

export interface SongFactsStatus {
  state: 'idle' | 'analysing' | 'done' | 'failed';
  /** 0..1 while analysing. */
  fraction: number;
  /** The key the profiles preferred when the analysis chose its relative (shown as the alternative). */
  relativeOf: SongFacts['key'] | null;
}

/** The channels and rate of a decoded beat (an AudioBuffer in the page). */
export type BeatAudio = Pick<AudioBuffer, 'numberOfChannels' | 'sampleRate' | 'getChannelData'>;

/**
 * Issue 27: when an instrumental loads, its song facts (tempo, grid, key) are analysed in the song-facts
 * worker, with progress; a new beat or the beat's removal cancels the run. The result goes to the engine,
 * which draws the grid and snaps with it; the user's edits replace it there. A restored session's facts
 * (with the user's edits) are not analysed again: they win when their own beat loads.
 */
export class SongFactsRunner {
  readonly status = new Store<SongFactsStatus>({ state: 'idle', fraction: 0, relativeOf: null });
  readonly #client: SongFactsClient;
  #abort: AbortController | null = null;
  /** A restored session's facts, waiting for the saved beat (track id) they were made for. */
  #restored: { trackId: number; facts: SongFacts } | null = null;

  readonly #cores: CoreBudget;

  constructor(
    private readonly engine: MixerEngine,
    client: SongFactsClient = new SongFactsClient(),
    cores: CoreBudget = pageCores,
  ) {
    this.#client = client;
    this.#cores = cores;
  }

  /**
   * A saved session's facts for its beat: when the beat with this track id loads they are used as they were
   * saved instead of an analysis. Null facts (a session saved before any) leave the analysis to run.
   */
  restore(trackId: number | null, facts: SongFacts | null): void {
    this.#restored = trackId !== null && facts ? { trackId, facts } : null;
  }

  /** The facts a session saves: the restored ones while their beat is still loading, else the engine's. */
  current(): SongFacts | null {
    return this.#restored?.facts ?? this.engine.getState().songFacts;
  }

  /** A beat loaded (its saved track id, null before it is saved) or was removed (null). */
  analyse(buffer: BeatAudio | null, trackId: number | null = null): void {
    this.#abort?.abort();
    this.#abort = null;
    this.engine.setSongFacts(null);
    if (!buffer) {
      this.status.update(() => ({ state: 'idle', fraction: 0, relativeOf: null }));
      return;
    }
    // Only the session's own beat takes its facts; any other beat is analysed and the saved facts dropped.
    const restored = this.#restored;
    this.#restored = null;
    if (restored && restored.trackId === trackId) {
      this.engine.setSongFacts(restored.facts);
      this.status.update(() => ({ state: 'done', fraction: 1, relativeOf: null }));
      return;
    }
    const abort = new AbortController();
    this.#abort = abort;
    this.status.update(() => ({ state: 'analysing', fraction: 0, relativeOf: null }));
    // The worker's copy is made a slice per task and moved, not cloned: one `slice()` of a 10-minute beat
    // and its structured clone held the page for most of a second (decision 290). A background job
    // (lib/core-budget): on a small machine it waits while the previews or the mixdown render.
    void this.#cores
      .background(async (gate) => {
        const channels = await copyForTransfer(
          Array.from({ length: buffer.numberOfChannels }, (_, i) => buffer.getChannelData(i)),
        );
        abort.signal.throwIfAborted();
        return this.#client.analyze(channels, buffer.sampleRate, {
          signal: abort.signal,
          gate,
          onProgress: (fraction) => this.status.update((s) => ({ ...s, fraction })),
        });
      }, abort.signal)
      .then(({ facts, relativeOf }) => {
        if (abort.signal.aborted) return;
        this.engine.setSongFacts(facts);
        this.status.update(() => ({ state: 'done', fraction: 1, relativeOf: relativeOf ?? null }));
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        console.warn('Song facts analysis failed', error);
        this.status.update(() => ({ state: 'failed', fraction: 0, relativeOf: null }));
      });
  }

  /** The user typed a tempo or chose a key: it replaces the analysis and counts as certain. */
  edit(patch: Partial<Pick<SongFacts, 'tempoBpm' | 'key'>>): void {
    const current = this.engine.getState().songFacts;
    if (!current) return;
    this.engine.setSongFacts({
      ...current,
      ...patch,
      ...(patch.tempoBpm !== undefined ? { tempoConfidence: 1 } : {}),
      ...(patch.key !== undefined ? { keyConfidence: 1 } : {}),
    });
  }

  dispose(): void {
    this.#abort?.abort();
    this.#client.dispose();
  }
}
