import { describe, expect, it } from 'vitest';
import { PRESETS } from '../mastering-constants';
import type { AlbumPlan } from './album-engine';
import { safeName, trackFileName, versionsOf } from './album-files';
import { outlierWords } from './album-outliers';
import {
  albumCostText,
  albumTrackJob,
  canPayFor,
  isrcFieldOk,
  moveItem,
  sameSliders,
  titleFromFileName,
} from './album-rules';

describe('album rules', () => {
  it('moves a track and keeps the list when nothing moves', () => {
    const list = ['a', 'b', 'c', 'd'];
    expect(moveItem(list, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(list, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(list, 1, 9)).toEqual(['a', 'c', 'd', 'b']);
    expect(moveItem(list, 0, -1)).toBe(list);
    expect(moveItem(list, 2, 2)).toBe(list);
  });

  it('prices the album one per track, credits before crowns', () => {
    expect(albumCostText(4, { masteringCredits: 10, crowns: 0 })).toBe('4 mastering credits');
    expect(albumCostText(4, { masteringCredits: 0, crowns: 35 })).toBe('4 crowns');
    expect(albumCostText(4, { masteringCredits: 1, crowns: 5 })).toBe('1 mastering credit and 3 crowns');
    expect(canPayFor(4, { masteringCredits: 1, crowns: 2 })).toBe(false);
    expect(canPayFor(4, { masteringCredits: 2, crowns: 2 })).toBe(true);
  });

  it('takes an empty or well-formed ISRC', () => {
    expect(isrcFieldOk('')).toBe(true);
    expect(isrcFieldOk('GB-ABC-26-00001')).toBe(true);
    expect(isrcFieldOk('gbabc2600001')).toBe(true);
    expect(isrcFieldOk('GB-ABC-26-0001')).toBe(false);
  });

  it('names titles and files safely', () => {
    expect(titleFromFileName('my_song.final.wav')).toBe('my song.final');
    expect(safeName('A/B: "c"\u0007')).toBe('AB c');
    expect(trackFileName(0, 'Intro', 'flac24')).toBe('01 - Intro (24-bit).flac');
    expect(trackFileName(11, 'Outro', 'mp3')).toBe('12 - Outro.mp3');
  });

  it('says outliers in words against the album median', () => {
    const row = (id: string, loudnessLufs: number, tiltDb: number) => ({
      id,
      loudnessLufs,
      lraLu: 6,
      tiltDb,
      lowEndDb: 4,
      lowEndCorrelation: 1,
      outliers: [] as ('loudness' | 'tilt')[],
    });
    const overview = {
      tracks: [row('a', -12, -8), row('b', -11, -7.6), row('c', -13, -8.4)],
      median: { loudness: -12, lra: 6, tilt: -8, lowEnd: 4 },
      outlierFrom: { loudness: 3, lra: 4, tilt: 3, lowEnd: 4 },
    };
    const track = {
      id: 't',
      loudnessLufs: -20.2,
      lraLu: 6,
      tiltDb: -14.4,
      lowEndDb: 4,
      lowEndCorrelation: 1,
      outliers: ['loudness', 'tilt'] as const,
    };
    overview.tracks.push({ ...track, outliers: [...track.outliers] });
    expect(outlierWords({ ...track, outliers: [...track.outliers] }, overview).map((w) => w.words)).toEqual([
      '8 dB quieter than the rest',
      '6 dB duller than the rest',
    ]);
  });

  it("renders a track with its own sliders under the album plan's loudness and tone", () => {
    // Only the fields albumMasterJob reads: the plan's chain, and each track's target and tone.
    const plan = {
      settings: PRESETS.balanced.settings,
      tracks: [
        { id: 'a', targetLufs: -14, tone: { album: { correctionDb: [1] } } },
        { id: 'b', targetLufs: -16.5, tone: { album: { correctionDb: [-2] } } },
      ],
    } as unknown as AlbumPlan;
    const manual = { compression: 80, brightness: 20, warmth: 70, stereoWidth: 40, loudness: 90 };
    const b = albumTrackJob(plan, 'b', manual)!;
    expect(b.index).toBe(1);
    expect(b.settings).toBe(manual);
    expect(b.targetLufs).toBe(-16.5);
    expect(b.tone).toBe(plan.tracks[1]!.tone);
    expect(albumTrackJob(plan, 'a', null)!.settings).toBe(PRESETS.balanced.settings);
    expect(albumTrackJob(plan, 'gone', manual)).toBeNull();
  });

  it('tells a manual change not yet rendered by its five sliders', () => {
    const base = PRESETS.balanced.settings;
    expect(sameSliders(base, { ...base })).toBe(true);
    expect(sameSliders(base, { ...base, toneMatch: 10 })).toBe(true);
    for (const key of ['compression', 'brightness', 'warmth', 'stereoWidth', 'loudness'] as const)
      expect(sameSliders(base, { ...base, [key]: base[key] + 1 })).toBe(false);
  });

  it("delivers a mix's chosen versions besides its Main, and none for a track without versions", () => {
    const one = new Float32Array(4);
    const mix = {
      versions: {
        sampleRate: 44_100,
        channels: { main: [one], instrumental: [one], acappella: [one] },
        versions: [],
        residualDb: null,
      },
    } as unknown as Parameters<typeof versionsOf>[0];
    expect(versionsOf(mix, ['main', 'instrumental', 'vocal-up', 'acappella'])).toEqual([
      'instrumental',
      'acappella',
    ]);
    expect(versionsOf(mix, [])).toEqual([]);
    expect(versionsOf({ versions: null }, ['instrumental'])).toEqual([]);
  });
});
