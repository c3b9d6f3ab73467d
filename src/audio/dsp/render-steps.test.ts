import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MasteringProgress } from './mastering-chain';
import { PROGRESS_INTERVAL_MS, renderSteps } from './mastering-chain';

describe('renderSteps progress (decision 298)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reports a stage at its start and end, and within it at most every PROGRESS_INTERVAL_MS', () => {
    let now = 1000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const seen: MasteringProgress[] = [];
    const { report } = renderSteps({ onProgress: (p) => seen.push(p) });
    report('processing', 0);
    for (let i = 1; i < 100; i++) {
      now += 10; // a report every 10 ms of work
      report('processing', i / 100);
    }
    report('processing', 1);
    now += 1; // the next stage goes at once, however soon
    report('loudness', 0);
    const processing = seen.filter((p) => p.stage === 'processing').map((p) => p.fraction);
    // 0, then every 10th report (100 ms apart), then the end; the processing span is 0.1..0.6.
    expect(processing.length).toBe(11);
    expect(processing[0]).toBe(0.1);
    for (let i = 1; i < 10; i++) expect(processing[i]).toBeCloseTo(0.1 + 0.05 * i, 12);
    expect(processing[10]).toBe(0.6);
    expect(seen.at(-1)).toEqual({ stage: 'loudness', fraction: 0.6 });
  });

  it('reports nothing and reads no clock without a listener', () => {
    const clock = vi.spyOn(performance, 'now');
    renderSteps({}).report('processing', 0.5);
    expect(clock).not.toHaveBeenCalled();
  });

  it(`a stage's reports ${PROGRESS_INTERVAL_MS} ms apart all go`, () => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const seen: number[] = [];
    const { report } = renderSteps({ onProgress: (p) => seen.push(p.fraction) });
    for (let i = 0; i < 5; i++) {
      report('limiting', i / 10);
      now += PROGRESS_INTERVAL_MS;
    }
    expect(seen.length).toBe(5);
  });
});
