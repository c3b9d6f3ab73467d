import { describe, expect, it } from 'vitest';
import { shapedNoise } from '../../../../audio/dsp/test-signals';
import { analyseTrack } from '../../../../audio/dsp/track-analysis';
import type { MixArrangement } from '../../../../shared/api/tracks';
import type { Genre } from '../../../../shared/genres';
import type { SourceState } from '../mastering-state';
import { chosenGenre, genreShown } from './genre-choice';

const track = analyseTrack(shapedNoise({ log2Frames: 17 }), 44100);
const source = (genre?: Genre): SourceState =>
  ({ track, arrangement: genre ? ({ genre } as MixArrangement) : null }) as unknown as SourceState;

describe('the genre in force (issue 28, decision 215)', () => {
  it('a mix from the mixer arrives with its genre; a choice on the page wins over it', () => {
    expect(chosenGenre({ genre: null, source: source('hiphop') })).toBe('hiphop');
    expect(genreShown({ genre: null, source: source('hiphop'), preset: 'balanced' })).toMatchObject({
      genre: 'hiphop',
      source: 'mix',
    });
    expect(chosenGenre({ genre: 'jazz', source: source('hiphop') })).toBe('jazz');
    expect(genreShown({ genre: 'jazz', source: source('hiphop'), preset: 'balanced' }).source).toBe('chosen');
  });

  it('a single file: nothing handed to the engine, which suggests the genre the field shows', () => {
    expect(chosenGenre({ genre: null, source: source() })).toBeUndefined();
    const shown = genreShown({ genre: null, source: source(), preset: 'balanced' });
    expect(shown.source).toBe('suggested');
    expect(shown.genre).toBe(shown.suggestion?.genre);
    expect(shown.suggestion?.because).toMatch(/^bass [+−]\d+\.\d dB over the mids/);
  });
});
