import { describe, expect, it } from 'vitest';
import { MixerEngine } from '../engine/mixer-engine';
import { gridLines, gridStep, nudgeSeconds, snapSeconds } from './beat-grid';
import type { SongFacts } from './song-facts';

const facts: SongFacts = {
  tempoBpm: 120,
  tempoConfidence: 0.9,
  key: { tonic: 9, mode: 'minor' },
  keyConfidence: 0.8,
  downbeatSeconds: 0.25,
  beatsPerBar: 4,
};

describe('beat grid', () => {
  it('draws a line per beat from before the first downbeat, bars every four', () => {
    const lines = gridLines(facts, 4.3);
    expect(lines[0]).toEqual({ seconds: 0.25, bar: true, barNumber: 1 });
    expect(lines.map((l) => l.seconds)).toEqual([0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.25, 3.75, 4.25]);
    expect(lines.filter((l) => l.bar).map((l) => l.seconds)).toEqual([0.25, 2.25, 4.25]);
  });

  it('snaps to the nearest beat or bar, and leaves the position alone with snap off', () => {
    expect(snapSeconds(1.1, facts, 'beat')).toBeCloseTo(1.25, 9);
    expect(snapSeconds(1.1, facts, 'bar')).toBeCloseTo(0.25, 9);
    expect(snapSeconds(1.4, facts, 'bar')).toBeCloseTo(2.25, 9);
    expect(snapSeconds(1.1234, facts, 'off')).toBe(1.1234);
    expect(snapSeconds(1.1234, null, 'beat')).toBe(1.1234);
  });

  it('nudges one grid step, from between two points to the next one', () => {
    expect(gridStep(facts, 'beat')).toBe(0.5);
    expect(gridStep(facts, 'off')).toBe(0.01);
    expect(nudgeSeconds(1.25, facts, 'beat', 1)).toBeCloseTo(1.75, 9);
    expect(nudgeSeconds(1.3, facts, 'beat', 1)).toBeCloseTo(1.75, 9);
    expect(nudgeSeconds(1.3, facts, 'beat', -1)).toBeCloseTo(1.25, 9);
    expect(nudgeSeconds(1.3, facts, 'off', 1)).toBeCloseTo(1.31, 9);
    // A start one sample off the grid (whole samples) still counts as on it, both ways.
    expect(nudgeSeconds(1.25 + 1 / 48000, facts, 'beat', -1)).toBeCloseTo(0.75, 9);
    expect(nudgeSeconds(1.25 - 1 / 48000, facts, 'beat', 1)).toBeCloseTo(1.75, 9);
  });
});

describe('the engine snaps drags and nudges to the song facts', () => {
  const rate = 48000;
  const engine = () => {
    const e = new MixerEngine({ sampleRate: rate, clock: () => 0 });
    e.setTrack('instrumental', 30);
    e.setTrack('vocals', 10);
    return e;
  };
  const position = (e: MixerEngine) =>
    e.getState().history.present.clips.find((c) => c.trackType === 'vocals')!.position / rate;

  it('keeps the 10 ms grid with snap off, lands on beats and downbeats with it on', () => {
    const e = engine();
    e.setSongFacts(facts);
    e.beginDrag('vocals-clip');
    e.dragTo('vocals-clip', 2.2345);
    expect(position(e)).toBeCloseTo(2.23, 9);
    e.setSnap('beat');
    e.dragTo('vocals-clip', 2.2345);
    expect(position(e)).toBeCloseTo(2.25, 9);
    e.setSnap('bar');
    e.dragTo('vocals-clip', 3.0);
    expect(position(e)).toBeCloseTo(2.25, 9);
    e.endDrag();
    e.setSnap('beat');
    e.nudgeSelected(1);
    expect(position(e)).toBeCloseTo(2.75, 9);
    e.nudgeSelected(-1);
    e.nudgeSelected(-1);
    expect(position(e)).toBeCloseTo(1.75, 9);
  });
});
