import { createPauseGate, type PauseGate, setGateClosed } from '../../audio/workers/pause-gate';

/**
 * The cores the page's workers may keep busy at once, so the main thread keeps one for input and drawing.
 * Jobs the user waits for (a track's decoding until it shows, the mixer's previews and mixdown) start at once and count while they run; the
 * page's background analyses of a loaded track (its key and tempo, its genre, the vocal's findings) start
 * only while fewer jobs than the cores less one run, one after another in the order they asked. A background
 * job already running when a foreground one starts would still take a core: while the two together are more
 * than the slots, the budget closes its pause gate (audio/workers/pause-gate.ts, decision 296), which the
 * background job passes to its worker, and the worker holds at its next checkpoint until the gate opens.
 *
 * Why (issue 26, e2e/mixer-longtask.spec.ts on two cores): after Apply Sequence three workers (previews,
 * song facts, listening) used 5.5 s of CPU in 5 s, and the page's own tasks of 16-43 ms CPU lasted 70-124 ms
 * on the wall waiting for a core.
 */
export class CoreBudget {
  #foreground = 0;
  #background = 0;
  readonly #waiting: (() => void)[] = [];
  /** Null where the page has no shared memory: background jobs then run beside foreground ones. */
  readonly gate: PauseGate | null;
  /**
   * Closed only while a press is handled (`press`), never by the jobs: for a job in the worker the user's
   * jobs also run in (the vocal's pitch curve in the mix worker), which holding for them would only keep
   * them queued behind it.
   */
  readonly pressGate: PauseGate | null;
  #presses = 0;

  constructor(
    readonly slots: number,
    gate: PauseGate | null = createPauseGate(),
    pressGate: PauseGate | null = createPauseGate(),
  ) {
    this.gate = gate;
    this.pressGate = pressGate;
  }

  /** Jobs counted now (foreground and background). */
  get running(): number {
    return this.#foreground + this.#background;
  }

  /** Whether running background jobs are told to hold (the gate is closed). */
  get pausing(): boolean {
    return this.#foreground > 0 && this.running > this.slots;
  }

  /** A job the user waits for: runs at once and holds a core while it runs. */
  async foreground<T>(job: () => Promise<T>): Promise<T> {
    this.#foreground++;
    this.#updateGate();
    try {
      return await job();
    } finally {
      this.#foreground--;
      this.#release();
    }
  }

  /**
   * A background job: starts when a core is free and every earlier background job has started. A signal
   * aborted while it waits rejects with the signal's reason and the job never runs. The job gets the gate to
   * pass to its worker's call (RpcCallOptions.gate); without a gate it is not paused once started.
   */
  async background<T>(job: (gate: PauseGate | undefined) => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#acquire(signal);
    try {
      return await job(this.gate ?? undefined);
    } finally {
      this.#background--;
      this.#release();
    }
  }

  /**
   * A press being handled: a foreground job until the page has painted what it changed, which also closes
   * the press gate meanwhile (decision 308).
   */
  async press(): Promise<void> {
    this.#presses++;
    if (this.pressGate) setGateClosed(this.pressGate, true);
    try {
      await this.foreground(afterPaint);
    } finally {
      this.#presses--;
      if (this.pressGate && this.#presses === 0) setGateClosed(this.pressGate, false);
    }
  }

  #acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.running < this.slots && this.#waiting.length === 0) {
      this.#background++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#waiting.splice(this.#waiting.indexOf(start), 1);
        reject(signal!.reason);
      };
      const start = () => {
        signal?.removeEventListener('abort', onAbort);
        this.#background++;
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(start);
    });
  }

  #release(): void {
    while (this.running < this.slots && this.#waiting.length > 0) this.#waiting.shift()!();
    this.#updateGate();
  }

  #updateGate(): void {
    if (this.gate) setGateClosed(this.gate, this.pausing);
  }
}

/**
 * Resolves once the page has painted what it last changed (a frame, then a task after it): a foreground job
 * that ends with an update the user waits to see holds its core until it is drawn. Where there are no
 * frames (tests, a hidden tab) it resolves after a task.
 */
export const afterPaint = (): Promise<void> =>
  new Promise((resolve) => {
    const next = () => setTimeout(resolve, 0);
    if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible')
      requestAnimationFrame(next);
    else next();
  });

/** The page's budget: its cores less one, at least one (a one-core machine still analyses). */
export const pageCores = new CoreBudget(Math.max(1, (globalThis.navigator?.hardwareConcurrency ?? 2) - 1));

/** What the user does with a press: the events that make a page's task the user then waits on. */
const INPUT_EVENTS = ['pointerdown', 'click', 'keydown'] as const;

/**
 * While the user presses something, the background analyses hold: each press (pointer down, click, key) is
 * `press`, a foreground job until the page has painted what it changed (decision 308). A foreground job
 * started by the click's handler closes the gate too, but only once the handler runs: the press's events,
 * the handler and React's commit come first in one main-thread task, and on two cores that task shared its
 * core with an analysis worker and the browser's own processes (a Create Mixdown click of 37 ms CPU lasted
 * 168 ms on the wall while the listening worker ran beside it). Listeners in the capture phase on `target`,
 * passive, so they run before the page's own; returns what removes them.
 */
export const holdForInput = (budget: CoreBudget, target: EventTarget = window): (() => void) => {
  const hold = () => {
    void budget.press();
  };
  const options = { capture: true, passive: true };
  for (const type of INPUT_EVENTS) target.addEventListener(type, hold, options);
  return () => {
    for (const type of INPUT_EVENTS) target.removeEventListener(type, hold, options);
  };
};
