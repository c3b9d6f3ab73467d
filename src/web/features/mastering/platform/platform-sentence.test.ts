import { describe, expect, it } from 'vitest';
import { platformTable } from '../engine/engine-api';
import { platformSentence } from './platform-sentence';

describe('the "How it will play" sentence', () => {
  it('a loud master: every service turns it down, and says the extra loudness is matched away', () => {
    expect(platformSentence(platformTable(-9, -2.5))).toBe(
      'Every service turns your master down (by 2.0 to 10.0 dB) to match the songs around it; its peaks leave every service the room it asks for.',
    );
  });

  it('a quiet master: some turn it up, down-only services play it as it is', () => {
    const s = platformSentence(platformTable(-18, -6));
    expect(s).toMatch(/^Spotify \(Quiet\) turns your master down \(by 1\.0 dB\), /);
    expect(s).toMatch(/Spotify, Spotify \(Loud\) and 3 more turn it up \(by 2\.0 to 7\.0 dB\)/);
    expect(s).toMatch(/ and 2 play it as it is; its peaks leave every service the room it asks for\.$/);
  });

  it('no service turns it down: the first clause still names the master', () => {
    expect(platformSentence(platformTable(-20, -9))).toMatch(
      /^Spotify, Spotify \(Loud\) and \d more turn your master up /,
    );
  });

  it('peaks too hot for a service: names it', () => {
    expect(platformSentence(platformTable(-9, -1.5))).toMatch(
      /; its peaks are too close to clipping for Amazon Music, whose compressed copies may distort\.$/,
    );
  });

  it('a master at every target: nothing changes', () => {
    const rows = platformTable(-14, -3).map((r) => ({ ...r, gainDb: 0, direction: 'none' as const }));
    expect(platformSentence(rows)).toBe(
      'Every service plays your master at about the level it is; its peaks leave every service the room it asks for.',
    );
  });
});
