import { describe, expect, it } from 'vitest';
import type { TrackView } from '../../../../shared/api/tracks';
import { reopenOfMix } from './saved-session';

const track = (arrangement: Partial<NonNullable<TrackView['arrangement']>>): TrackView =>
  ({
    id: 9,
    name: 'Final Mix',
    type: 'mixed',
    arrangement: {
      vocalTrackId: 1,
      instrumentalTrackId: 2,
      sampleRate: 48000,
      length: 480000,
      vocalShare: 50,
      outputVolume: 70,
      clips: [
        { id: 'vocals-clip', trackType: 'vocals', sourceStart: 0, sourceEnd: 96000, position: 48000 },
        {
          id: 'instrumental-clip',
          trackType: 'instrumental',
          sourceStart: 0,
          sourceEnd: 480000,
          position: 0,
        },
      ],
      ...arrangement,
    },
  }) as TrackView;

describe('reopening a saved mix in the mixer (issue 30, with issue 27)', () => {
  it("brings back the mix's song facts and pitch correction", () => {
    const songFacts = {
      tempoBpm: 123,
      tempoConfidence: 1,
      key: { tonic: 4, mode: 'minor' as const },
      keyConfidence: 0.8,
      downbeatSeconds: 0.1,
      beatsPerBar: 4,
    };
    const pitch = { amount: 65, retuneMs: 0, humanize: 30, key: null, followSongKey: false };
    const reopen = reopenOfMix(track({ songFacts, pitch, genre: 'pop' }));
    expect(reopen).toMatchObject({ songFacts, pitch, genre: 'pop', style: 'balanced', outputVolume: 70 });
    expect(reopen.clips.vocals[0]).toMatchObject({ startTime: 0, endTime: 2, position: 1 });
  });

  it('reopens an older mix without them as none (the beat is analysed, correction off)', () => {
    expect(reopenOfMix(track({}))).toMatchObject({
      songFacts: null,
      pitch: null,
      genre: null,
      vocalChain: null,
    });
  });

  it("brings back the Adjust amounts the mix was made with (issue 26's manual mode)", () => {
    const reopen = reopenOfMix(track({ genre: 'rnb', vocalChain: { deEsser: 0.4, space: 0 } }));
    expect(reopen.vocalChain).toEqual({ deEsser: 0.4, space: 0 });
  });
});
