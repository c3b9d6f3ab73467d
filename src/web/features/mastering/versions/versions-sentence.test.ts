import { describe, expect, it } from 'vitest';
import { versionsSentence } from './versions-sentence';

describe('the Versions sentence', () => {
  it('no version needed the safety limiter', () => {
    expect(
      versionsSentence([
        { version: 'main', safetyGainDb: 0 },
        { version: 'instrumental', safetyGainDb: -0.001 },
      ]),
    ).toBe("All 2 versions were mastered with the Main's EQ and gain, and none needed the safety limiter.");
  });

  it('names the versions the limiter held down, by the deepest reduction', () => {
    expect(
      versionsSentence([
        { version: 'main', safetyGainDb: 0 },
        { version: 'instrumental', safetyGainDb: 0 },
        { version: 'acappella', safetyGainDb: 0 },
        { version: 'vocal-up', safetyGainDb: -0.84 },
        { version: 'vocal-down', safetyGainDb: -0.2 },
      ]),
    ).toBe(
      "All 5 versions were mastered with the Main's EQ and gain; the safety limiter held Vocal up and Vocal down down by at most 0.8 dB to keep their peaks safe.",
    );
  });
});
