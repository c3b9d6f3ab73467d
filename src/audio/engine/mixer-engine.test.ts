import { describe, expect, it } from 'vitest';
import { MixerEngine, START_LEAD_SECONDS } from './mixer-engine';
import { selectDurationSeconds, selectSpecClips } from './mixer-state';
import type { PlaybackOutput } from './playback-output';
import type { ScheduledClip } from './schedule';

/** Node has no Web Audio: this output keeps a hand-driven clock and records what the engine started. */
class ClockOutput implements PlaybackOutput {
  currentTime = 100;
  starts: { at: number; schedule: readonly ScheduledClip[] }[] = [];
  stops = 0;
  volume = -1;
  start(schedule: readonly ScheduledClip[], at: number) {
    this.starts.push({ at, schedule });
  }
  stop() {
    this.stops++;
  }
  setVolume(gain: number) {
    this.volume = gain;
  }
  hasTrack() {
    return true;
  }
}

const setup = () => {
  const output = new ClockOutput();
  const timers: { fn: () => void; at: number }[] = [];
  const engine = new MixerEngine({
    sampleRate: 48_000,
    output,
    setTimer: (fn, ms) => {
      const t = { fn, at: output.currentTime + ms / 1000 };
      timers.push(t);
      return t;
    },
    clearTimer: (h) => timers.splice(timers.indexOf(h as (typeof timers)[number]), 1),
  });
  /** Advance the audio clock and fire due timers. */
  const advance = (seconds: number) => {
    output.currentTime += seconds;
    for (const t of [...timers].sort((a, b) => a.at - b.at)) {
      if (t.at <= output.currentTime && timers.includes(t)) {
        timers.splice(timers.indexOf(t), 1);
        t.fn();
      }
    }
  };
  return { engine, output, advance };
};

describe('MixerEngine', () => {
  it('gives immutable snapshots and notifies subscribers on change only', () => {
    const { engine } = setup();
    let calls = 0;
    const unsubscribe = engine.subscribe(() => calls++);
    const before = engine.getState();
    engine.setTrack('vocals', 30);
    const after = engine.getState();
    expect(after).not.toBe(before);
    expect(selectSpecClips(after).vocals).toHaveLength(1);
    expect(calls).toBe(1);
    engine.clearSelection();
    expect(engine.getState()).toBe(after);
    expect(calls).toBe(1);
    unsubscribe();
    engine.selectClip('vocals-clip');
    expect(calls).toBe(1);
  });

  it('sets preview volume 80% by default', () => {
    const { engine, output } = setup();
    expect(engine.getState().previewVolume).toBe(80);
    expect(output.volume).toBe(0.8);
  });

  it('plays clips from the saved position, pauses and saves the live playhead', () => {
    const { engine, output, advance } = setup();
    engine.setTrack('vocals', 30);
    engine.setTrack('instrumental', 90);
    engine.seek(10);
    engine.play();
    expect(output.starts).toHaveLength(1);
    expect(output.starts[0]!.at).toBeCloseTo(100 + START_LEAD_SECONDS, 9);
    expect(output.starts[0]!.schedule.map((s) => s.offset)).toEqual([10, 10]);
    advance(START_LEAD_SECONDS + 5);
    expect(engine.getPlayheadSeconds()).toBeCloseTo(15, 3);
    engine.pause();
    expect(engine.getState().transport).toEqual({ playing: false, position: 15 * 48_000 });
    expect(output.stops).toBe(1);
  });

  it('stops at 99% and restarts from 0 when played from 99.5%', () => {
    const { engine, advance } = setup();
    engine.setTrack('instrumental', 100);
    engine.seek(90);
    engine.play();
    advance(START_LEAD_SECONDS + 8.5);
    expect(engine.getState().transport.playing).toBe(true);
    advance(0.6);
    expect(engine.getState().transport.playing).toBe(false);
    // Ended past 99%: the saved position becomes 0 so the next Play starts over.
    expect(engine.getState().transport.position).toBe(0);
    engine.seek(99.6);
    engine.play();
    expect(engine.getState().transport.position).toBe(0);
  });

  it('ignores seeks outside 0..duration', () => {
    const { engine } = setup();
    engine.seek(-1);
    engine.seek(61);
    expect(engine.getState().transport.position).toBe(0);
    expect(selectDurationSeconds(engine.getState())).toBe(60);
  });

  it('reschedules live playback when clips change while playing', () => {
    const { engine, output, advance } = setup();
    engine.setTrack('vocals', 30);
    engine.play();
    advance(START_LEAD_SECONDS + 4);
    engine.selectClip('vocals-clip');
    expect(output.starts).toHaveLength(1);
    engine.cutAtPlayhead();
    expect(selectSpecClips(engine.getState()).vocals.map((c) => c.id)).toEqual([
      'vocals-clip-1',
      'vocals-clip-2',
    ]);
    expect(output.starts).toHaveLength(2);
    expect(output.starts[1]!.schedule.map((s) => [s.clipId, s.offset])).toEqual([['vocals-clip-2', 4]]);
  });

  it('reschedules when a track is loaded while playing', () => {
    const { engine, output, advance } = setup();
    engine.setTrack('instrumental', 90);
    engine.play();
    advance(START_LEAD_SECONDS + 2);
    engine.setTrack('vocals', 30);
    expect(output.starts).toHaveLength(2);
    expect(output.starts[1]!.schedule.map((s) => [s.trackType, s.offset])).toEqual([
      ['instrumental', 2],
      ['vocals', 2],
    ]);
    expect(engine.getState().transport.playing).toBe(true);
  });

  it('makes one drag one undo step, and Reset All restores full clips and stops', () => {
    const { engine } = setup();
    engine.setTrack('vocals', 30);
    engine.beginDrag('vocals-clip');
    expect(engine.getState().history.present.selectedId).toBe('vocals-clip');
    for (const s of [1, 2, 3.456]) engine.dragTo('vocals-clip', s);
    engine.endDrag();
    expect(selectSpecClips(engine.getState()).vocals[0]!.position).toBeCloseTo(3.46, 9);
    engine.undo();
    expect(selectSpecClips(engine.getState()).vocals[0]!.position).toBe(0);
    engine.redo();
    engine.play();
    engine.resetAll();
    const s = engine.getState();
    expect(s.transport).toEqual({ playing: false, position: 0 });
    expect(selectSpecClips(s).vocals[0]).toMatchObject({ position: 0, selected: false });
  });

  it('applies saved session clips when their track loads', () => {
    const { engine } = setup();
    engine.loadSavedClips({
      vocals: [{ id: 'v1', trackType: 'vocals', startTime: 2, endTime: 6, position: 12, selected: false }],
    });
    engine.setTrack('instrumental', 40);
    engine.setTrack('vocals', 20);
    expect(selectSpecClips(engine.getState()).vocals).toEqual([
      { id: 'v1', trackType: 'vocals', startTime: 2, endTime: 6, position: 12, selected: false },
    ]);
  });

  it('stops playback on Apply Sequence and keeps the applied clips', () => {
    const { engine } = setup();
    engine.setTrack('vocals', 30);
    engine.play();
    const applied = engine.applySequence();
    expect(engine.getState().transport.playing).toBe(false);
    expect(engine.getState().applied).toBe(applied);
  });
});
