import { describe, expect, it } from 'vitest';
import { createBatchLoader } from './batch-loader';

/** A loadMany that records each call and answers when the test says so. */
function controlledLoader() {
  const calls: Array<{ keys: string[]; answer: (m: Map<string, number>) => void; fail: (e: Error) => void }> =
    [];
  const loadMany = (keys: string[]) =>
    new Promise<Map<string, number>>((answer, fail) => calls.push({ keys, answer, fail }));
  return { calls, loadMany };
}
const turn = () => new Promise((r) => setImmediate(r));

describe('createBatchLoader', () => {
  it('sends the lookups of one turn as one call, deduplicated, and answers each caller', async () => {
    const { calls, loadMany } = controlledLoader();
    const load = createBatchLoader(loadMany);
    const answers = Promise.all([load('a'), load('b'), load('a'), load('missing')]);
    await turn();
    expect(calls.map((c) => c.keys)).toEqual([['a', 'b', 'missing']]);
    calls[0].answer(
      new Map([
        ['a', 1],
        ['b', 2],
      ]),
    );
    expect(await answers).toEqual([1, 2, 1, undefined]);
  });

  it('never answers a caller from a call sent before it asked', async () => {
    const { calls, loadMany } = controlledLoader();
    const load = createBatchLoader(loadMany);
    const first = load('a');
    await turn();
    const second = load('a'); // the first call is in flight: this one must get its own
    await turn();
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['a']]);
    calls[0].answer(new Map([['a', 1]]));
    calls[1].answer(new Map([['a', 2]]));
    expect([await first, await second]).toEqual([1, 2]);
  });

  it('holds at most maxInFlight calls; the lookups that wait go together in the next one', async () => {
    const { calls, loadMany } = controlledLoader();
    const load = createBatchLoader(loadMany, { maxInFlight: 1 });
    const a = load('a');
    await turn();
    const rest = [load('b'), load('c')];
    await turn();
    expect(calls).toHaveLength(1);
    calls[0].answer(new Map([['a', 1]]));
    expect(await a).toBe(1);
    await turn();
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b', 'c']]);
    calls[1].answer(new Map([['c', 3]]));
    expect(await Promise.all(rest)).toEqual([undefined, 3]);
  });

  it('rejects every caller of a failed call and keeps working for the next ones', async () => {
    const { calls, loadMany } = controlledLoader();
    const load = createBatchLoader(loadMany);
    const failed = [load('a'), load('b')].map((p) => p.catch((e: Error) => e.message));
    await turn();
    calls[0].fail(new Error('database unavailable'));
    expect(await Promise.all(failed)).toEqual(['database unavailable', 'database unavailable']);
    const next = load('a');
    await turn();
    calls[1].answer(new Map([['a', 7]]));
    expect(await next).toBe(7);
  });

  it('starts a call at once when a batch reaches maxBatch', async () => {
    const { calls, loadMany } = controlledLoader();
    const load = createBatchLoader(loadMany, { maxBatch: 2 });
    void load('a');
    void load('b');
    expect(calls.map((c) => c.keys)).toEqual([['a', 'b']]);
    void load('c');
    await turn();
    expect(calls.map((c) => c.keys)).toEqual([['a', 'b'], ['c']]);
  });
});
