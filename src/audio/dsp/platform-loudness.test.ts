import { describe, expect, it } from 'vitest';
import {
  PLATFORMS,
  type PlatformId,
  platformById,
  platformPlayback,
  platformTable,
} from './platform-loudness';

/** gain dB per platform, worked out by hand from each platform's rule (see the comments per case). */
const gains = (lufs: number, tp: number): Record<PlatformId, number> =>
  Object.fromEntries(platformTable(lufs, tp).map((r) => [r.platform.id, r.gainDb])) as Record<
    PlatformId,
    number
  >;

describe('platform loudness table', () => {
  it('turns a loud master (-9 LUFS, -1 dBTP) down everywhere, by target minus loudness', () => {
    // Spotify -14-(-9) = -5; Loud -11+9 = -2; Quiet -19+9 = -10; Apple -16+9 = -7; YouTube/TIDAL/Amazon -5;
    // Deezer -15+9 = -6.
    expect(gains(-9, -1)).toEqual({
      spotify: -5,
      'spotify-loud': -2,
      'spotify-quiet': -10,
      'apple-music': -7,
      youtube: -5,
      tidal: -5,
      'amazon-music': -5,
      deezer: -6,
    });
  });

  it('turns a quiet master (-20 LUFS, -4 dBTP) up only within each platform headroom', () => {
    // Spotify wants +6, headroom to -1 dBTP is 3 -> +3 (Spotify's own example: -20/-5 is lifted to -16).
    // Loud: +9 regardless of peak (the limiter takes the peaks). Quiet: wants +1, fits in 3 -> +1.
    // Apple wants +4, headroom 3 -> +3. YouTube and TIDAL never up -> 0. Amazon wants +6, headroom to -2 is
    // 2 -> +2. Deezer wants +5, headroom 3 -> +3.
    expect(gains(-20, -4)).toEqual({
      spotify: 3,
      'spotify-loud': 9,
      'spotify-quiet': 1,
      'apple-music': 3,
      youtube: 0,
      tidal: 0,
      'amazon-music': 2,
      deezer: 3,
    });
  });

  it("reproduces Spotify's published example: -20 LUFS with a -5 dBFS true peak is lifted to -16 LUFS", () => {
    const row = platformPlayback(platformById('spotify'), -20, -5);
    expect(row.gainDb).toBe(4);
    expect(row.playedLufs).toBe(-16);
    expect(row.heldBackDb).toBe(2);
    expect(row.direction).toBe('up');
  });

  it('does not raise a quiet master whose peak is already over the ceiling, and warns', () => {
    const row = platformPlayback(platformById('apple-music'), -18, -0.3);
    expect(row.gainDb).toBe(0);
    expect(row.direction).toBe('none');
    expect(row.heldBackDb).toBeCloseTo(2, 10);
    expect(row.headroomWarning).toBe(true);
  });

  it('warns where the true peak leaves less headroom than the platform asks (-1.5 dBTP: only Amazon)', () => {
    const warned = platformTable(-10, -1.5)
      .filter((r) => r.headroomWarning)
      .map((r) => r.platform.id);
    expect(warned).toEqual(['amazon-music']);
    expect(platformTable(-10, -1).some((r) => r.headroomWarning && r.platform.id !== 'amazon-music')).toBe(
      false,
    );
    expect(platformTable(-10, -0.5).filter((r) => r.headroomWarning)).toHaveLength(PLATFORMS.length);
  });

  it("models Spotify Loud's limiter: how far the gained peak goes over -1 dB", () => {
    // -16 LUFS, -3 dBTP: +5 dB puts the peak at +2 dBTP, 3 dB over the limiter's -1 dB.
    const row = platformPlayback(platformById('spotify-loud'), -16, -3);
    expect(row.gainDb).toBe(5);
    expect(row.playedTruePeakDbtp).toBe(2);
    expect(row.limiterOverDb).toBe(3);
    expect(platformPlayback(platformById('spotify'), -16, -3).limiterOverDb).toBe(0);
  });

  it('calls a master already at the target "none" and refuses a silent one', () => {
    expect(platformPlayback(platformById('tidal'), -14.002, -2).direction).toBe('none');
    expect(() => platformPlayback(platformById('tidal'), Number.NEGATIVE_INFINITY, -2)).toThrow(/loudness/);
  });
});
