import { type MixerEngine, type SongFacts, SongFactsClient } from '../../../audio';
import { Store } from './flow-state';

export interface SongFactsStatus {
  state: 'idle' | 'analysing' | 'done' | 'failed';
  /** 0..1 while analysing. */
  fraction: number;
  /** The key the profiles preferred when the analysis chose its relative (shown as the alternative). */
  relativeOf: SongFacts['key'] | null;
}

/**
 * Issue 27: when an instrumental loads, its song facts (tempo, grid, key) are analysed in the song-facts
 * worker, with progress; a new beat or the beat's removal cancels the run. The result goes to the engine,
 * which draws the grid and snaps with it; the user's edits replace it there.
 */
export class SongFactsRunner {
  readonly status = new Store<SongFactsStatus>({ state: 'idle', fraction: 0, relativeOf: null });
  readonly #client = new SongFactsClient();
  #abort: AbortController | null = null;

  constructor(private readonly engine: MixerEngine) {}

  analyse(buffer: AudioBuffer | null): void {
    this.#abort?.abort();
    this.#abort = null;
    this.engine.setSongFacts(null);
    if (!buffer) {
      this.status.update(() => ({ state: 'idle', fraction: 0, relativeOf: null }));
      return;
    }
    const abort = new AbortController();
    this.#abort = abort;
    const channels = Array.from({ length: buffer.numberOfChannels }, (_, i) =>
      buffer.getChannelData(i).slice(),
    );
    this.status.update(() => ({ state: 'analysing', fraction: 0, relativeOf: null }));
    void this.#client
      .analyze(channels, buffer.sampleRate, {
        signal: abort.signal,
        onProgress: (fraction) => this.status.update((s) => ({ ...s, fraction })),
      })
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
