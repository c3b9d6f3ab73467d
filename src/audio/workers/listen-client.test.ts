/** The listening worker's handlers over a MessageChannel: results equal to the in-place functions, progress, cancel. */
import { describe, expect, it } from 'vitest';
import { suggestBeatGenre } from '../dsp/genre-suggest';
import { analyseTrack } from '../dsp/track-analysis';
import { analyseVocal } from '../dsp/vocal/analyse-vocal';
import { inProcessWorker } from './in-process-worker.test-helper';
import { ListenClient } from './listen-client';
import { createListenHandlers } from './listen-handlers';
import type { ListenApi } from './listen-protocol';

const RATE = 44_100;
const factory = inProcessWorker<ListenApi>(createListenHandlers);

/** A harmonic tone that starts and stops over faint noise: a voice-like take with pauses. */
const take = (seconds: number): Float32Array => {
  const x = new Float32Array(seconds * RATE);
  let s = 5;
  for (let i = 0; i < x.length; i++) {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    let v = 0;
    for (let h = 1; h <= 8; h++) v += Math.sin((2 * Math.PI * 180 * h * i) / RATE) / h;
    const on = Math.floor(i / RATE) % 3 !== 2;
    x[i] = (s / 4_294_967_296 - 0.5) * 2e-3 + (on ? 0.2 * v : 0);
  }
  return x;
};

describe('ListenClient over the listening handlers', () => {
  it('answers the vocal analysis as analyseVocal does in place, reporting progress up to 1', async () => {
    const x = take(6);
    const reference = analyseVocal([x], RATE, 'rock');
    const progress: number[] = [];
    const client = new ListenClient(factory);
    const got = await client.vocal([Float32Array.from(x)], RATE, 'rock', {
      onProgress: (f) => progress.push(f),
    });
    expect(got).toEqual(reference);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(1);
    client.dispose();
  });

  it("answers the beat's suggestion as the in-place functions do, and a cancel rejects at once", async () => {
    const beat = [take(8), take(8)];
    const reference = suggestBeatGenre(analyseTrack(beat, RATE), 96);
    const client = new ListenClient(factory);
    const got = await client.beat(
      beat.map((c) => Float32Array.from(c)),
      RATE,
      96,
    );
    expect(got).toEqual(reference);
    const abort = new AbortController();
    const pending = client.beat(
      beat.map((c) => Float32Array.from(c)),
      RATE,
      null,
      { signal: abort.signal },
    );
    abort.abort();
    await expect(pending).rejects.toThrow();
    client.dispose();
  });
});
