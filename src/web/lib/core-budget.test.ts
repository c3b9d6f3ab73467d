import { describe, expect, it } from 'vitest';
import { gateClosed } from '../../audio/workers/pause-gate';
import { CoreBudget, holdForInput } from './core-budget';

/** A job that runs until `finish` is called, recording when it started. */
const pendingJob = (log: string[], name: string) => {
  let finish: (value: string) => void = () => {};
  const done = new Promise<string>((resolve) => {
    finish = resolve;
  });
  return {
    job: () => {
      log.push(`start ${name}`);
      return done;
    },
    finish: () => finish(name),
  };
};

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('CoreBudget', () => {
  it('runs background jobs one slot at a time, in the order they asked', async () => {
    const budget = new CoreBudget(1);
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => pendingJob(log, n));
    const results = [budget.background(a!.job), budget.background(b!.job), budget.background(c!.job)];
    await turn();
    expect(log).toEqual(['start a']);
    a!.finish();
    await turn();
    expect(log).toEqual(['start a', 'start b']);
    b!.finish();
    await turn();
    c!.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(budget.running).toBe(0);
  });

  it('starts a foreground job at once, and background jobs wait until it is done', async () => {
    const budget = new CoreBudget(1);
    const log: string[] = [];
    const fg = pendingJob(log, 'preview');
    const bg = pendingJob(log, 'analysis');
    const preview = budget.foreground(fg.job);
    const analysis = budget.background(bg.job);
    await turn();
    expect(log).toEqual(['start preview']);
    expect(budget.running).toBe(1);
    fg.finish();
    await preview;
    await turn();
    expect(log).toEqual(['start preview', 'start analysis']);
    bg.finish();
    expect(await analysis).toBe('analysis');
  });

  it('lets a foreground job in beside a running background one (the user never waits on an analysis)', async () => {
    const budget = new CoreBudget(1);
    const log: string[] = [];
    const bg = pendingJob(log, 'analysis');
    const fg = pendingJob(log, 'mixdown');
    void budget.background(bg.job);
    await turn();
    void budget.foreground(fg.job);
    expect(log).toEqual(['start analysis', 'start mixdown']);
    expect(budget.running).toBe(2);
    bg.finish();
    fg.finish();
  });

  it('drops a waiting job whose signal aborts, with the reason, and never runs it', async () => {
    const budget = new CoreBudget(1);
    const log: string[] = [];
    const a = pendingJob(log, 'a');
    const b = pendingJob(log, 'b');
    const c = pendingJob(log, 'c');
    void budget.background(a.job);
    const abort = new AbortController();
    const dropped = budget.background(b.job, abort.signal);
    const next = budget.background(c.job);
    abort.abort(new Error('track removed'));
    await expect(dropped).rejects.toThrow('track removed');
    a.finish();
    await turn();
    expect(log).toEqual(['start a', 'start c']);
    c.finish();
    expect(await next).toBe('c');
    expect(budget.running).toBe(0);
  });

  it('releases the slot when a job fails', async () => {
    const budget = new CoreBudget(1);
    await expect(budget.background(() => Promise.reject(new Error('worker crashed')))).rejects.toThrow(
      'worker crashed',
    );
    expect(budget.running).toBe(0);
    expect(await budget.background(async () => 'next')).toBe('next');
  });

  it('closes its pause gate while a foreground job runs beside a background one, and only then', async () => {
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const budget = new CoreBudget(1, gate);
    const log: string[] = [];
    const bg = pendingJob(log, 'analysis');
    let passed: Int32Array | undefined;
    const analysis = budget.background((g) => {
      passed = g;
      return bg.job();
    });
    await turn();
    expect(passed).toBe(gate);
    expect(gateClosed(gate)).toBe(false);
    const preview = pendingJob(log, 'preview');
    const previews = budget.foreground(preview.job);
    expect(budget.pausing).toBe(true);
    expect(gateClosed(gate)).toBe(true);
    preview.finish();
    await previews;
    expect(gateClosed(gate)).toBe(false);
    // The background job ending while a foreground one runs opens the gate too (nothing left to hold).
    const mixdown = pendingJob(log, 'mixdown');
    const mixing = budget.foreground(mixdown.job);
    expect(gateClosed(gate)).toBe(true);
    bg.finish();
    await analysis;
    expect(gateClosed(gate)).toBe(false);
    mixdown.finish();
    await mixing;
    expect(log).toEqual(['start analysis', 'start preview', 'start mixdown']);
  });

  it("holds the background analyses from a press until the page has painted, on the page's events only", async () => {
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const pressGate = new Int32Array(new SharedArrayBuffer(4));
    const budget = new CoreBudget(1, gate, pressGate);
    const log: string[] = [];
    const bg = pendingJob(log, 'analysis');
    const analysis = budget.background(bg.job);
    await turn();
    const page = new EventTarget();
    const release = holdForInput(budget, page);
    for (const type of ['pointerdown', 'click', 'keydown']) {
      page.dispatchEvent(new Event(type));
      expect(gateClosed(gate)).toBe(true);
      expect(gateClosed(pressGate)).toBe(true);
      // No frames here: the hold ends after a task (afterPaint), and the analysis goes on.
      await turn();
      await turn();
      expect(gateClosed(gate)).toBe(false);
      expect(gateClosed(pressGate)).toBe(false);
    }
    // The user's own jobs close the analyses' gate, never the press gate (the pitch curve shares their worker).
    const preview = pendingJob(log, 'preview');
    const previews = budget.foreground(preview.job);
    expect(gateClosed(gate)).toBe(true);
    expect(gateClosed(pressGate)).toBe(false);
    preview.finish();
    await previews;
    log.splice(log.indexOf('start preview'), 1);
    // A background job asking while a press is held waits for the paint.
    page.dispatchEvent(new Event('pointerdown'));
    const next = pendingJob(log, 'genre');
    const genre = budget.background(next.job);
    bg.finish();
    await analysis;
    expect(log).toEqual(['start analysis']);
    await turn();
    await turn();
    expect(log).toEqual(['start analysis', 'start genre']);
    // Moves and removed listeners hold nothing.
    page.dispatchEvent(new Event('pointermove'));
    expect(gateClosed(gate)).toBe(false);
    release();
    page.dispatchEvent(new Event('pointerdown'));
    expect(budget.running).toBe(1);
    next.finish();
    await genre;
  });

  it('leaves its gate open where the cores suffice for both', async () => {
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const budget = new CoreBudget(3, gate);
    const log: string[] = [];
    const bg = pendingJob(log, 'analysis');
    const fg = pendingJob(log, 'preview');
    const analysis = budget.background(bg.job);
    await turn();
    const preview = budget.foreground(fg.job);
    expect(budget.pausing).toBe(false);
    expect(gateClosed(gate)).toBe(false);
    bg.finish();
    fg.finish();
    await Promise.all([analysis, preview]);
  });

  it('rejects at once when the signal has already aborted', async () => {
    const budget = new CoreBudget(2);
    const abort = new AbortController();
    abort.abort(new Error('gone'));
    await expect(budget.background(async () => 'never', abort.signal)).rejects.toThrow('gone');
    expect(budget.running).toBe(0);
  });
});
