/**
 * Issue 31: the album plan on real music (Debian's hyperrogue-music, one soundtrack by one composer: a
 * record). One track made 8 dB quieter and one made dull (decision 213's shelves), each track mastered
 * with the plan's job through the product's render; loudness by ffmpeg's ebur128, tilt by ffmpeg's
 * band-passes (genre-takes.test-helper.ts), not by the engine.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../shared/mastering';
import { decodeTake, ffmpegTilt, TAKES } from '../dsp/genre-takes.test-helper';
import { renderMaster } from '../dsp/mastering-chain';
import { ffmpegAvailable, ffmpegEbur128 } from '../dsp/node-tools.test-helper';
import { analyseTrack, type TrackAnalysis } from '../dsp/track-analysis';
import type { AlbumTrackInput } from './album-api';
import { ALBUM_SPREAD_LIMIT_LU, albumMasterJob, planAlbum } from './album-plan';

const RATE = 44100;
const immediate = () => Promise.resolve();
const DIR = '/usr/share/hyperrogue/music';
const QUIETER = 'volume=-8dB';

/** name, file, the ffmpeg filter that spoils it. */
const RECORD: [string, string, string][] = [
  ['jungle', `${DIR}/hr3-jungle.ogg`, ''],
  ['caves', `${DIR}/hr3-caves.ogg`, QUIETER],
  ['hell', `${DIR}/hr3-hell.ogg`, TAKES.dull],
  ['desert', `${DIR}/hr3-desert.ogg`, ''],
  ['icyland', `${DIR}/hr3-icyland.ogg`, ''],
];

const spread = (values: readonly number[]) => Math.max(...values) - Math.min(...values);

describe('album plan on a real record (issue 31)', { timeout: 600_000 }, async () => {
  const tools = await ffmpegAvailable();

  it.skipIf(!tools)(
    'loudest at the target, the rest within 0.5 LU of plan; tilt spread at most half the input',
    async () => {
      const sources: Float32Array[][] = [];
      for (const [, path, filter] of RECORD) {
        const s = await decodeTake(path, RATE, filter, 30, 30);
        if (!s) return;
        sources.push(s);
      }
      const tracks: AlbumTrackInput[] = RECORD.map(([id], i) => ({
        id,
        analysis: analyseTrack(sources[i]!, RATE),
      }));
      const plan = planAlbum({ tracks, preset: 'balanced' });

      // Level-invariant: the quieter upload is planned exactly as its original would be.
      const original = await decodeTake(RECORD[1]![1], RATE, '', 30, 30);
      const asMixed = planAlbum({
        tracks: tracks.map((t, i) => (i === 1 ? { ...t, analysis: analyseTrack(original!, RATE) } : t)),
        preset: 'balanced',
      });
      expect(plan.tracks[1]!.targetLufs).toBeCloseTo(asMixed.tracks[1]!.targetLufs, 1);

      const rows: string[] = [];
      const tiltIn: number[] = [];
      const tiltOut: number[] = [];
      for (let i = 0; i < RECORD.length; i++) {
        const job = albumMasterJob(plan, i);
        const channels = sources[i]!.map((c) => c.slice());
        await renderMaster(channels, RATE, job, { yieldFn: immediate });
        const out = await ffmpegEbur128(channels, RATE);
        tiltIn.push(await ffmpegTilt(sources[i]!, RATE));
        tiltOut.push(await ffmpegTilt(channels, RATE));
        const t = plan.tracks[i]!;
        rows.push(
          `${t.id}: ${t.inputLufs.toFixed(1)} LUFS -> plan ${t.targetLufs.toFixed(1)} (distance ` +
            `${t.distanceLu.toFixed(1)}), ffmpeg ${out.integrated.toFixed(1)}; tilt ${tiltIn[i]!.toFixed(1)} -> ` +
            `${tiltOut[i]!.toFixed(1)} dB (planned ${t.plannedTiltDb.toFixed(1)}, confidence ` +
            `${t.departureConfidence.toFixed(2)})`,
        );
        expect(Math.abs(out.integrated - t.targetLufs)).toBeLessThanOrEqual(0.5);
      }
      console.log(
        `${rows.join('\n')}\ngenre ${plan.genre}, album share ${plan.albumShare.toFixed(2)}; tilt spread ` +
          `${spread(tiltIn).toFixed(1)} -> ${spread(tiltOut).toFixed(1)} dB`,
      );
      const loudest = plan.tracks.find((t) => t.id === plan.loudestId)!;
      expect(loudest.targetLufs).toBe(PRESETS.balanced.targetLufs);
      for (const t of plan.tracks) {
        expect(t.distanceLu).toBeGreaterThanOrEqual(0);
        expect(t.distanceLu).toBeLessThanOrEqual(ALBUM_SPREAD_LIMIT_LU);
      }
      expect(spread(tiltOut)).toBeLessThanOrEqual(spread(tiltIn) / 2);
    },
  );
});

describe('album plan: distances (decision 280)', () => {
  const base = { midDb: [] as number[] } as unknown as TrackAnalysis;
  const synthetic = (plrDb: number): TrackAnalysis => {
    // A flat spectrum at the genre curve's level does not matter here: only the loudness side is read.
    const a = analyseTrack([new Float32Array(4410).fill(0.1)], RATE);
    return { ...base, ...a, plrDb, integratedLufs: -20 };
  };

  it('the densest track is the loudest; the others their PLR difference under it, capped', () => {
    const plan = planAlbum({
      tracks: [
        { id: 'single', analysis: synthetic(10) },
        { id: 'ballad', analysis: synthetic(13.5) },
        { id: 'very quiet', analysis: synthetic(25) },
      ],
      preset: 'loud',
    });
    expect(plan.loudestId).toBe('single');
    expect(plan.tracks.map((t) => t.targetLufs)).toEqual([-9, -12.5, -9 - ALBUM_SPREAD_LIMIT_LU]);
    expect(plan.tracks.map((t) => t.distanceFrom)).toEqual(['estimate', 'estimate', 'estimate']);
  });

  it("the user's distances win, counted from the smallest", () => {
    const plan = planAlbum({
      tracks: [
        { id: 'a', analysis: synthetic(10), distanceLu: 2 },
        { id: 'b', analysis: synthetic(10), distanceLu: 5 },
        { id: 'c', analysis: synthetic(10), distanceLu: 40 },
      ],
      preset: 'balanced',
    });
    expect(plan.loudestId).toBe('a');
    expect(plan.tracks.map((t) => t.distanceLu)).toEqual([0, 3, ALBUM_SPREAD_LIMIT_LU - 2]);
    expect(plan.tracks[0]!.distanceFrom).toBe('user');
  });

  it('a silent track sits at the bound, not at the top', () => {
    const plan = planAlbum({
      tracks: [
        { id: 'song', analysis: synthetic(12) },
        { id: 'silence', analysis: { ...synthetic(12), plrDb: Number.POSITIVE_INFINITY } },
      ],
      preset: 'balanced',
    });
    expect(plan.loudestId).toBe('song');
    expect(plan.tracks[1]!.distanceLu).toBe(ALBUM_SPREAD_LIMIT_LU);
  });

  it('refuses fewer than 2 or more than 20 tracks and repeated ids', () => {
    const t = { id: 'x', analysis: synthetic(10) };
    expect(() => planAlbum({ tracks: [t], preset: 'balanced' })).toThrow(/2 to 20/);
    expect(() => planAlbum({ tracks: [t, t], preset: 'balanced' })).toThrow(/differ/);
    const many = Array.from({ length: 21 }, (_, i) => ({ ...t, id: String(i) }));
    expect(() => planAlbum({ tracks: many, preset: 'balanced' })).toThrow(/2 to 20/);
  });
});
