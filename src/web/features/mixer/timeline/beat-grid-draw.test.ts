import { describe, expect, it } from 'vitest';
import { gridLines } from '../../../../audio';
import { linesToDraw, MIN_GAP_PX, TILE_PX, tileCount } from './beat-grid-draw';

const facts = { tempoBpm: 120, downbeatSeconds: 0.25, beatsPerBar: 4 };

describe('the beat grid at a lane width', () => {
  it('draws every beat where beats stand MIN_GAP_PX apart', () => {
    const lines = gridLines(facts, 30);
    // 0.5 s a beat: 12 px per second puts them 6 px apart.
    expect(linesToDraw(lines, MIN_GAP_PX / 0.5)).toEqual(lines);
  });

  it('keeps only bars when beats crowd, and every 2^k-th bar when bars crowd too', () => {
    const lines = gridLines(facts, 600);
    expect(lines.length).toBe(1200);
    // 2 s a bar. 4 px/s: beats 2 px apart, bars 8 px: every bar.
    const bars = linesToDraw(lines, 4);
    expect(bars.every((l) => l.bar)).toBe(true);
    expect(bars.length).toBe(lines.filter((l) => l.bar).length);
    // A 10-minute song at fit zoom on a 1000 px lane (1.67 px/s): bars 3.3 px apart, so every 2nd bar.
    const thinned = linesToDraw(lines, 1000 / 600);
    expect(thinned.map((l) => l.barNumber).slice(0, 4)).toEqual([1, 3, 5, 7]);
    const gaps = thinned.slice(1).map((l, i) => (l.seconds - thinned[i]!.seconds) * (1000 / 600));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(MIN_GAP_PX);
    // Closer still: every 4th, 8th ... bar, always counted from bar 1 (bar 0 before the downbeat drops).
    expect(
      linesToDraw(lines, 0.5)
        .map((l) => l.barNumber)
        .slice(0, 3),
    ).toEqual([1, 9, 17]);
  });

  it('cuts a lane into tiles no wider than TILE_PX', () => {
    expect(tileCount(0)).toBe(1);
    expect(tileCount(TILE_PX)).toBe(1);
    expect(tileCount(TILE_PX + 1)).toBe(2);
    expect(tileCount(64 * 1100)).toBe(18);
  });
});
