/**
 * Which main-thread tasks of the page ran long, and what ran in them, from a Chromium trace written by
 * `e2e/helpers/main-thread-trace.ts` (e.g. `MIXER_TRACE=/tmp/mix.json npx playwright test
 * e2e/mixer-longtask.spec.ts`):
 *   npx tsx bench/mixer-page-tasks.ts /tmp/mix.json [threshold ms, default 50] [from mark]
 * It ends with the tasks of the user's clicks and file choices (decision 297), whatever their length.
 * For each task on the renderer's main thread whose own CPU time is over the threshold: its start (page time,
 * as performance.now() and the User Timing marks count it), its wall and CPU time, the last mark before it,
 * its biggest DevTools timeline events (layout, paint, GC, script) and the functions with the most self time
 * in the sampling profile. CPU time, not wall time, says what the page's own work costs: on the shared two
 * cores at load 10-17 a task of 3 ms CPU can last 200 ms on the wall (the OS ran someone else), which the
 * 'longtask' entries count as a long task. The summary gives both.
 */
import { readFile } from 'node:fs/promises';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event (µs). */
  tdur?: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      startTime?: number;
      cpuProfile?: {
        nodes?: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
        samples?: number[];
      };
      timeDeltas?: number[];
      url?: string;
      functionName?: string;
      /** An EventDispatch's event type (click, change, ...). */
      type?: string;
    };
  };
}

const [file, thresholdArg, fromMark = 'longtask:from'] = process.argv.slice(2);
if (!file) throw new Error('usage: mixer-page-tasks.ts trace.json [threshold ms]');
const threshold = Number(thresholdArg ?? 50) * 1000;
const { traceEvents: events } = JSON.parse(await readFile(file, 'utf8')) as { traceEvents: TraceEvent[] };

const names = new Map<string, string>();
for (const e of events)
  if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
const mainKey = [...names].find(([, n]) => n === 'CrRendererMain')?.[0];
if (!mainKey) throw new Error('no renderer main thread in the trace');
const onMain = (e: TraceEvent) => `${e.pid}:${e.tid}` === mainKey;

// User Timing marks carry the page's own clock (performance.now()) beside the trace's: one gives the offset.
const marks = events
  .filter(
    (e) => onMain(e) && e.cat.includes('blink.user_timing') && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n'),
  )
  .map((e) => ({ name: e.name, ts: e.ts }))
  .sort((a, b) => a.ts - b.ts);
const navStart = events.find((e) => onMain(e) && e.name === 'navigationStart')?.ts;
const pageMs = (ts: number) => (navStart === undefined ? ts / 1000 : (ts - navStart) / 1000);

// The main thread's sampling profile: each sample's time and stack top.
const samples: { ts: number; fn: string }[] = [];
const profileIds = new Set(
  events.filter((e) => onMain(e) && e.name === 'Profile').map((e) => `${e.pid}:${e.id}`),
);
const nodes = new Map<string, { fn: string }>();
const clock = new Map<string, number>();
for (const e of events) {
  if (e.name === 'Profile' && profileIds.has(`${e.pid}:${e.id}`))
    clock.set(`${e.pid}:${e.id}`, e.args?.data?.startTime ?? e.ts);
}
for (const e of events) {
  const key = `${e.pid}:${e.id}`;
  if (e.name !== 'ProfileChunk' || !profileIds.has(key)) continue;
  const data = e.args?.data;
  for (const n of data?.cpuProfile?.nodes ?? []) {
    const f = n.callFrame;
    const where = f.url ? ` ${f.url.split('/').pop()}:${f.lineNumber + 1}` : '';
    nodes.set(`${key}:${n.id}`, { fn: `${f.functionName || '(anonymous)'}${where}` });
  }
  let t = clock.get(key) ?? 0;
  const ids = data?.cpuProfile?.samples ?? [];
  const deltas = data?.timeDeltas ?? [];
  for (let i = 0; i < ids.length; i++) {
    t += deltas[i] ?? 0;
    samples.push({ ts: t, fn: nodes.get(`${key}:${ids[i]}`)?.fn ?? '?' });
  }
  clock.set(key, t);
}
samples.sort((a, b) => a.ts - b.ts);

// Only what follows the spec's 'longtask:from' mark (taken before the first upload), or another mark named
// as the third argument, when the trace has it.
const from = marks.find((m) => m.name === fromMark)?.ts ?? 0;
const allTasks = events
  .filter((e) => e.ts >= from)
  .filter(
    (e) => onMain(e) && e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask'),
  )
  .sort((a, b) => a.ts - b.ts);
const longestBy = (key: 'dur' | 'tdur') =>
  allTasks.reduce((m, t) => ((t[key] ?? 0) > (m?.[key] ?? 0) ? t : m), allTasks[0]);
const byWall = longestBy('dur');
const byCpu = longestBy('tdur');
const markBefore = (ts: number) => marks.filter((m) => m.ts <= ts).at(-1)?.name ?? '-';
const ms = (us: number | undefined) => ((us ?? 0) / 1000).toFixed(0);
const cpuTotal = allTasks.reduce((sum, t) => sum + (t.tdur ?? 0), 0);
console.log(
  `main-thread tasks: ${allTasks.length}, ${ms(cpuTotal)} ms CPU in all; over ${threshold / 1000} ms wall: ${allTasks.filter((t) => (t.dur ?? 0) >= threshold).length}, over ${threshold / 1000} ms CPU: ${allTasks.filter((t) => (t.tdur ?? 0) >= threshold).length}`,
);
if (byWall && byCpu)
  console.log(
    `longest wall: ${ms(byWall.dur)} ms (CPU ${ms(byWall.tdur)}) after ${markBefore(byWall.ts)}; longest CPU: ${ms(byCpu.tdur)} ms (wall ${ms(byCpu.dur)}) after ${markBefore(byCpu.ts)}`,
  );
const tasks = allTasks.filter((t) => (t.tdur ?? 0) >= threshold);
const detailNames = new Set([
  'FunctionCall',
  'EvaluateScript',
  'TimerFire',
  'EventDispatch',
  'FireAnimationFrame',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'PrePaint',
  'Layerize',
  'UpdateLayer',
  'MajorGC',
  'MinorGC',
  'V8.GCScavenger',
  'V8.GC_MARK_COMPACTOR',
  'V8.GCFinalizeMC',
  'RunMicrotasks',
  'ParseHTML',
  'HitTest',
  'ScheduleStyleRecalculation',
  'v8.run',
  'BlinkGC.AtomicPhase',
  'XHRReadyStateChange',
  'ResourceReceivedData',
  'FireIdleCallback',
]);
for (const task of tasks) {
  const end = task.ts + (task.dur ?? 0);
  const inside = events.filter(
    (e) =>
      onMain(e) && e.ph === 'X' && e !== task && e.ts >= task.ts && e.ts < end && detailNames.has(e.name),
  );
  const byName = new Map<string, number>();
  for (const e of inside) byName.set(e.name, (byName.get(e.name) ?? 0) + (e.dur ?? 0));
  const fns = new Map<string, number>();
  let n = 0;
  for (const s of samples)
    if (s.ts >= task.ts && s.ts < end) {
      fns.set(s.fn, (fns.get(s.fn) ?? 0) + 1);
      n += 1;
    }
  const mark = markBefore(task.ts);
  console.log(
    `\n${ms(task.tdur)} ms CPU (${ms(task.dur)} wall) at ${pageMs(task.ts).toFixed(0)} (after ${mark}); events: ${[
      ...byName,
    ]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`)
      .join(', ')}`,
  );
  for (const [fn, count] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 8))
    console.log(`    ${((100 * count) / Math.max(1, n)).toFixed(0).padStart(3)}%  ${fn}`);
}

// The user's own input tasks (decision 297): each task that dispatched a click or a file input's change, with
// its CPU and wall time and the CPU of the app's listener in it (React's handler and commit), whatever their
// length. The rest of a click's task is the browser's (hit tests, Playwright's actionability checks) and the
// frame's style, layout and pre-paint.
const inputTypes = new Set(['click', 'change']);
const dispatches = events.filter(
  (e) =>
    onMain(e) &&
    e.ts >= from &&
    e.ph === 'X' &&
    e.name === 'EventDispatch' &&
    inputTypes.has(e.args?.data?.type ?? '') &&
    (e.dur ?? 0) > 1000,
);
if (dispatches.length) console.log('\ninput tasks (click, change):');
for (const d of dispatches) {
  const task = allTasks.find((t) => t.ts <= d.ts && t.ts + (t.dur ?? 0) >= d.ts + (d.dur ?? 0));
  if (!task) continue;
  const type = d.args?.data?.type;
  console.log(
    `  ${type} at ${pageMs(task.ts).toFixed(0)} (after ${markBefore(task.ts)}): task ${ms(task.tdur)} ms CPU (${ms(task.dur)} wall), listener ${((d.tdur ?? 0) / 1000).toFixed(1)} ms CPU`,
  );
}
