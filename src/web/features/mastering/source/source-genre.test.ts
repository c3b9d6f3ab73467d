import { describe, expect, it } from 'vitest';
import type { MixArrangement } from '../../../../shared/api/tracks';
import { masteringLink, mixGenreOf } from './source-genre';

const arrangement = (genre?: MixArrangement['genre']): MixArrangement => ({
  vocalTrackId: 1,
  instrumentalTrackId: 2,
  sampleRate: 48_000,
  length: 48_000,
  vocalShare: 50,
  outputVolume: 80,
  clips: [],
  ...(genre ? { genre } : {}),
});

describe('mixGenreOf', () => {
  it("prefers the saved arrangement's genre", () => {
    const params = new URLSearchParams('trackId=7&genre=rock');
    expect(mixGenreOf({ trackId: 7, arrangement: arrangement('hiphop') }, params)).toBe('hiphop');
  });

  it("takes the link's genre only for the track the link loaded, and only a known genre", () => {
    expect(mixGenreOf({ trackId: 7, arrangement: null }, new URLSearchParams('trackId=7&genre=rnb'))).toBe(
      'rnb',
    );
    expect(
      mixGenreOf({ trackId: null, arrangement: null }, new URLSearchParams('trackId=7&genre=rnb')),
    ).toBeNull();
    expect(
      mixGenreOf({ trackId: 8, arrangement: null }, new URLSearchParams('trackId=7&genre=rnb')),
    ).toBeNull();
    expect(
      mixGenreOf({ trackId: 7, arrangement: null }, new URLSearchParams('trackId=7&genre=polka')),
    ).toBeNull();
    expect(mixGenreOf(null, new URLSearchParams('trackId=7&genre=rnb'))).toBeNull();
  });

  it('builds the mixer link with and without a genre', () => {
    expect(masteringLink(7, 'edm')).toBe('/mastering?trackId=7&genre=edm');
    expect(masteringLink(7, null)).toBe('/mastering?trackId=7');
  });
});
