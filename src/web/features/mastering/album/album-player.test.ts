import { describe, expect, it } from 'vitest';
import { planSequence } from './album-engine';
import { sequenceOptions, trackAt } from './album-player';
import type { AlbumTrack } from './album-state';

const track = (key: string) => ({ key }) as AlbumTrack;

describe('album player layout', () => {
  it('asks for a crossfade only where ticked, and the gap for the rest', () => {
    const options = sequenceOptions({
      tracks: [track('a'), track('b'), track('c')],
      sequence: { gapSeconds: 1.5, crossfades: { b: true, a: false } },
    });
    expect(options.gapSeconds).toBe(1.5);
    expect(options.transitions).toEqual([undefined, { crossfadeSeconds: 3 }]);
  });

  it('finds the track under the playhead from the sequence starts', () => {
    const layout = planSequence([44_100, 88_200, 44_100], 44_100, { gapSeconds: 2 });
    expect(trackAt(layout, 0)).toBe(0);
    expect(trackAt(layout, layout.starts[1]! - 1)).toBe(0);
    expect(trackAt(layout, layout.starts[1]!)).toBe(1);
    expect(trackAt(layout, layout.frames - 1)).toBe(2);
  });
});
