import type { ListenClient, TrackType } from '../../../audio';
import type { Genre } from '../../../shared/genres';
import { pageCores } from '../../lib/core-budget';
import { clearedListening, effectiveGenre, type FlowState, type Listening, type Store } from './flow-state';
import { copyForTransfer } from './upload/audio-buffers';

/** Progress reaches React in whole percent: the worker reports far more often than that changes. */
const percent = (f: number) => Math.floor(f * 100) / 100;

const KEY: Record<TrackType, 'vocal' | 'beat'> = { vocals: 'vocal', instrumental: 'beat' };

/**
 * Issue 26: when a track loads, the listening worker hears it: the beat for its suggested genre, the vocal for
 * what the chain will fix. One job per track; a new file, or clearing the track, cancels the old job.
 */
export class TrackListener {
  readonly #store: Store<FlowState>;
  readonly #client: ListenClient;
  readonly #jobs: Record<TrackType, AbortController | null> = { vocals: null, instrumental: null };

  readonly #onSuggestion: (before: Genre | null) => void;

  /** `onSuggestion` hears when a beat's suggestion lands, with the genre the mix aimed at before it. */
  constructor(store: Store<FlowState>, client: ListenClient, onSuggestion: (before: Genre | null) => void) {
    this.#store = store;
    this.#client = client;
    this.#onSuggestion = onSuggestion;
  }

  async listen(type: TrackType, buffer: AudioBuffer | null): Promise<void> {
    this.#jobs[type]?.abort();
    this.#jobs[type] = null;
    const key = KEY[type];
    this.#set(key, clearedListening());
    if (!buffer) return;
    const abort = new AbortController();
    this.#jobs[type] = abort;
    this.#set(key, { status: 'listening', fraction: 0, result: null });
    const onProgress = (f: number) => {
      const fraction = percent(f);
      const now = this.#store.getState()[key];
      if (abort.signal.aborted || now.fraction === fraction) return;
      this.#set(key, { ...now, fraction });
    };
    try {
      // A background job (lib/core-budget): it waits while the previews or the mixdown render on a small
      // machine, and its copy of the track is made only when it starts.
      await pageCores.background(async (gate) => {
        const channels = await copyForTransfer(
          Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c)),
        );
        if (abort.signal.aborted) return;
        const options = { signal: abort.signal, onProgress, gate };
        // The vocal's balance is measured against a genre's target; the page re-reads it for another genre.
        if (type === 'instrumental') {
          const result = await this.#client.beat(channels, buffer.sampleRate, null, options);
          if (abort.signal.aborted) return;
          const before = effectiveGenre(this.#store.getState());
          this.#store.update((s) => ({ ...s, beat: { status: 'ready', fraction: 1, result } }));
          this.#onSuggestion(before);
        } else {
          const genre = effectiveGenre(this.#store.getState()) ?? 'pop';
          const result = await this.#client.vocal(channels, buffer.sampleRate, genre, options);
          if (!abort.signal.aborted)
            this.#store.update((s) => ({ ...s, vocal: { status: 'ready', fraction: 1, result } }));
        }
      }, abort.signal);
    } catch (error) {
      if (abort.signal.aborted) return;
      console.warn(`Listening to the ${type} track failed`, error);
      this.#set(key, { status: 'failed', fraction: 0, result: null });
    } finally {
      if (this.#jobs[type] === abort) this.#jobs[type] = null;
    }
  }

  #set(key: 'vocal' | 'beat', value: Listening<unknown>): void {
    this.#store.update((s) => ({ ...s, [key]: value }));
  }

  dispose(): void {
    for (const job of Object.values(this.#jobs)) job?.abort();
    this.#client.dispose();
  }
}
