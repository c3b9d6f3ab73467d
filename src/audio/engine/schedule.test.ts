import { describe, expect, it } from 'vitest';
import type { TimelineClip } from '../model/clip';
import { scheduleFrom } from './schedule';

const SR = 1000;
const clip = (id: string, sourceStart: number, sourceEnd: number, position: number): TimelineClip => ({
  id,
  trackType: 'vocals',
  sourceStart,
  sourceEnd,
  position,
});

describe('scheduleFrom', () => {
  const clips = [clip('a', 0, 2000, 0), clip('b', 2000, 5000, 4000), clip('c', 100, 600, 1000)];

  it('starts clips ahead later, a clip under the playhead part-way, and skips those behind', () => {
    expect(scheduleFrom(clips, 1500, SR)).toEqual([
      { clipId: 'a', trackType: 'vocals', delay: 0, offset: 1.5, duration: 0.5 },
      { clipId: 'b', trackType: 'vocals', delay: 2.5, offset: 2, duration: 3 },
    ]);
  });

  it('plays everything from 0', () => {
    const s = scheduleFrom(clips, 0, SR);
    expect(s.map((x) => [x.clipId, x.delay, x.offset, x.duration])).toEqual([
      ['a', 0, 0, 2],
      ['b', 4, 2, 3],
      ['c', 1, 0.1, 0.5],
    ]);
  });
});
