import { describe, expect, it } from 'vitest';
import { describeProgress, formatBytes, ProgressMeter } from './upload-progress';

describe('ProgressMeter', () => {
  it('claims no speed before half a second, then measures bytes per second and time left', () => {
    const meter = new ProgressMeter(1_000_000);
    expect(meter.sample(0, 0)).toEqual({
      sent: 0,
      total: 1_000_000,
      bytesPerSecond: null,
      secondsLeft: null,
    });
    expect(meter.sample(10_000, 100).bytesPerSecond).toBeNull();
    const p = meter.sample(100_000, 1000);
    expect(p.bytesPerSecond).toBe(100_000);
    expect(p.secondsLeft).toBe(9);
  });

  it('follows a change of pace: the speed is that of the last 3 seconds, not the average since the start', () => {
    const meter = new ProgressMeter(10_000_000);
    let sent = 0;
    for (let t = 0; t <= 10_000; t += 250) {
      sent = t * 1000; // 1 MB/s for 10 s
      meter.sample(sent, t);
    }
    let last = meter.sample(sent, 10_000);
    for (let t = 10_250; t <= 16_000; t += 250) {
      sent += 25_000; // then 100 kB/s
      last = meter.sample(sent, t);
    }
    expect(last.bytesPerSecond).toBeCloseTo(100_000, -3);
  });

  it('words sizes, speed and time left', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
    expect(
      describeProgress({ sent: 3_400_000, total: 9_800_000, bytesPerSecond: 420_000, secondsLeft: 15.2 }),
    ).toBe('3.4 MB of 9.8 MB · 420.0 kB/s · 16 s left');
    expect(describeProgress({ sent: 0, total: 5_000, bytesPerSecond: null, secondsLeft: null })).toBe(
      '0 B of 5.0 kB',
    );
    expect(describeProgress({ sent: 1, total: 9e9, bytesPerSecond: 1e6, secondsLeft: 600 })).toBe(
      '1 B of 9.0 GB · 1.0 MB/s · 10 min left',
    );
  });
});
