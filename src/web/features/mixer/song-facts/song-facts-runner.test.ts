import { afterEach, describe, expect, it } from 'vitest';
import { MixerEngine, type SongFacts, SongFactsClient } from '../../../../audio';
import { inProcessWorker } from '../../../../audio/workers/in-process-worker.test-helper';
import { createSongFactsHandlers } from '../../../../audio/workers/song-facts-handlers';
import type { SongFactsApi } from '../../../../audio/workers/song-facts-protocol';
import { type BeatAudio, SongFactsRunner } from './song-facts-runner';

const runners: SongFactsRunner[] = [];
afterEach(() => {
  for (const r of runners.splice(0)) r.dispose();
});
/** The real song-facts handlers behind a MessageChannel, as the worker serves them in the page. */
const factory = inProcessWorker<SongFactsApi>(createSongFactsHandlers);

const RATE = 22050;
/** A minute of a 100 BPM pulse: a low thump on each downbeat, noise ticks on every beat. */
const beat = (): BeatAudio => {
  const out = new Float32Array(RATE * 60);
  for (let b = 0; b * 0.6 * RATE < out.length; b++) {
    const start = Math.round(b * 0.6 * RATE);
    for (let i = 0; i < 800 && start + i < out.length; i++) {
      const tick = Math.sin(i * 1.7) * Math.sin(i * 0.31) * Math.exp(-i / 100) * 0.4;
      const thump = b % 4 === 0 ? Math.sin((2 * Math.PI * 55 * i) / RATE) * Math.exp(-i / 600) : 0;
      out[start + i] = tick + thump;
    }
  }
  return { numberOfChannels: 1, sampleRate: RATE, getChannelData: () => out };
};

/** What a user left in a session: a typed tempo far from the beat's 100 BPM, a chosen key. */
const edited: SongFacts = {
  tempoBpm: 140,
  tempoConfidence: 1,
  key: { tonic: 2, mode: 'major' },
  keyConfidence: 1,
  downbeatSeconds: 0.25,
  beatsPerBar: 3,
};

const setup = () => {
  const engine = new MixerEngine({ sampleRate: RATE, clock: () => 0 });
  const runner = new SongFactsRunner(engine, new SongFactsClient(factory));
  runners.push(runner);
  return { engine, runner };
};
const analysed = (runner: SongFactsRunner) =>
  new Promise<void>((resolve) => {
    const off = runner.status.subscribe(() => {
      if (runner.status.getState().state === 'analysing') return;
      off();
      resolve();
    });
  });

describe('SongFactsRunner and a restored session (issue 27)', () => {
  it("gives the session's own beat the saved facts, edits included, without analysing it", async () => {
    const { engine, runner } = setup();
    runner.restore(7, edited);
    expect(runner.current()).toEqual(edited); // saved again as they were while the beat still loads
    runner.analyse(null); // a slot cleared on the way does not drop them
    runner.analyse(beat(), 7);
    expect(engine.getState().songFacts).toEqual(edited);
    expect(runner.status.getState()).toEqual({ state: 'done', fraction: 1, relativeOf: null });
    // No analysis is left running to replace them later.
    await new Promise((r) => setTimeout(r, 300));
    expect(engine.getState().songFacts).toEqual(edited);
    expect(runner.current()).toEqual(edited);
  });

  it('analyses any other beat, and drops the saved facts for good', async () => {
    const { engine, runner } = setup();
    runner.restore(7, edited);
    const done = analysed(runner);
    runner.analyse(beat(), null); // the user chose another file before the session's beat arrived
    expect(runner.status.getState().state).toBe('analysing');
    expect(engine.getState().songFacts).toBeNull();
    await done;
    expect(runner.status.getState().state).toBe('done');
    expect(Math.abs(engine.getState().songFacts!.tempoBpm - 100)).toBeLessThan(1);
    expect(runner.current()).toEqual(engine.getState().songFacts);

    const again = analysed(runner);
    runner.analyse(beat(), 7); // too late: the restored facts belonged to the session that was replaced
    await again;
    expect(Math.abs(engine.getState().songFacts!.tempoBpm - 100)).toBeLessThan(1);
  });

  it('analyses the beat when the session saved no facts', async () => {
    const { engine, runner } = setup();
    runner.restore(7, null);
    expect(runner.current()).toBeNull();
    const done = analysed(runner);
    runner.analyse(beat(), 7);
    await done;
    expect(Math.abs(engine.getState().songFacts!.tempoBpm - 100)).toBeLessThan(1);
  });
});
