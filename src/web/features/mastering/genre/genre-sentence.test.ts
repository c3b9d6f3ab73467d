import { describe, expect, it } from 'vitest';
import type { TrackGenreSuggestion } from '../engine/engine-api';
import { genreSentence } from './genre-sentence';

const heard = (genre: TrackGenreSuggestion['genre']) => ({ genre }) as TrackGenreSuggestion;

describe('the genre sentence', () => {
  it('suggested by the analysis', () => {
    expect(genreSentence({ genre: 'pop', source: 'suggested', suggestion: heard('pop') }, null)).toBe(
      "Your track sounds closest to Pop, so the master aims at Pop's tone and punch.",
    );
  });
  it('made as a genre in the mixer', () => {
    expect(genreSentence({ genre: 'rock', source: 'mix', suggestion: heard('pop') }, 'rock')).toBe(
      "You made this mix as Rock in the mixer, so the master aims at Rock's tone and punch.",
    );
  });
  it('chosen against what the analysis hears, and chosen as heard', () => {
    expect(genreSentence({ genre: 'rock', source: 'chosen', suggestion: heard('jazz') }, null)).toBe(
      "You chose Rock, so the master aims at Rock's tone and punch, though the track itself sounds closest to Jazz / Classical.",
    );
    expect(genreSentence({ genre: 'rock', source: 'chosen', suggestion: heard('rock') }, null)).toBe(
      "You chose Rock, so the master aims at Rock's tone and punch.",
    );
  });
  it('nothing yet before the analysis', () => {
    expect(genreSentence({ genre: null, source: 'suggested', suggestion: null }, null)).toBeNull();
  });
});
