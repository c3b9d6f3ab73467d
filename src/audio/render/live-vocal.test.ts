import { describe, expect, it } from 'vitest';
import type { PitchSettings } from '../../shared/pitch-settings';
import { correctPitch, runsOfSource, trackSource } from '../dsp/pitch/correct-pitch';
import { CorrectedSource, livePitchPlan } from '../dsp/pitch/corrected-source';
import { buildCorrectionCurve } from '../dsp/pitch/correction-curve';
import { detunedLine } from '../dsp/pitch/detuned-line.test-helper';
import type { TimelineClip } from '../model/clip';
import { renderLiveVocal } from './live-vocal';
import { organiseChannels } from './mix-organise';

/**
 * The live pitch-corrected vocal (decision 260) against the offline render: the tolerance rule of the live
 * paths (the mastering worklet against the worker render, decision 052): largest difference under 1e-5.
 */
const TOLERANCE = 1e-5;
const SR = 44_100;
const A_MINOR = { tonic: 9, mode: 'minor' } as const;
const ON: PitchSettings = { amount: 100, retuneMs: 20, humanize: 0, key: A_MINOR, followSongKey: false };

/** Plays `clips` quantum by quantum as the worklet does, from context frame `start` for `frames` frames. */
const playLive = (
  source: CorrectedSource,
  sourceRate: number,
  clips: TimelineClip[],
  timelineRate: number,
  start: number,
  frames: number,
  onQuantum?: (frame: number) => void,
) => {
  const out = [new Float32Array(frames), new Float32Array(frames)];
  const q = [new Float32Array(128), new Float32Array(128)];
  let moved = 0;
  for (let f = 0; f < frames; f += 128) {
    onQuantum?.(f);
    moved = Math.max(moved, renderLiveVocal(source, sourceRate, clips, timelineRate, start + f, q));
    for (let c = 0; c < 2; c++) out[c]!.set(q[c]!.subarray(0, Math.min(128, frames - f)), f);
  }
  return { out, moved };
};

const worstDifference = (a: Float32Array[], b: Float32Array[]) => {
  let worst = 0;
  for (let c = 0; c < a.length; c++)
    for (let i = 0; i < a[c]!.length; i++) worst = Math.max(worst, Math.abs(a[c]![i]! - b[c]![i]!));
  return worst;
};

/** The arrangement: the line cut in two, the second part moved later, the first starting 0.25 s in. */
const arrangement = (sourceFrames: number, timelineRate: number, sourceRate: number, at: number) => {
  const toTimeline = (n: number) => Math.round((n * timelineRate) / sourceRate);
  const cut = toTimeline(Math.round(sourceFrames * 0.45));
  const end = toTimeline(sourceFrames);
  const clips: TimelineClip[] = [
    {
      id: 'a',
      trackType: 'vocals',
      sourceStart: 0,
      sourceEnd: cut,
      position: at + Math.round(0.25 * timelineRate),
    },
    { id: 'b', trackType: 'vocals', sourceStart: cut, sourceEnd: end, position: at + cut + timelineRate },
  ];
  return { clips, length: end + Math.round(1.5 * timelineRate) };
};

const livePlan = async (channels: Float32Array[], rate: number, settings: PitchSettings) => {
  const track = await trackSource(channels, rate);
  const curve = buildCorrectionCurve(track, settings);
  return livePitchPlan(runsOfSource(channels, track), curve.ratio, track.hop, track.sampleRate);
};

describe('the live pitch-corrected vocal plays the offline render', () => {
  for (const timelineRate of [44_100, 48_000]) {
    it(`matches the render's corrected, organised vocal within ${TOLERANCE} (source 44.1 kHz, timeline ${timelineRate / 1000} kHz)`, async () => {
      const channels = detunedLine(4, SR);
      // The offline path: the whole source corrected (renderMix's correctVocalSource), then organised.
      const offline = await correctPitch(channels, SR, ON);
      // The live path starts at an arbitrary context frame, as the worklet's clock does.
      const start = 987_654;
      const { clips, length } = arrangement(channels[0]!.length, timelineRate, SR, start);
      const rendered = organiseChannels(
        { channels: offline.channels, sampleRate: SR },
        clips.map((c) => ({ ...c, position: c.position - start })),
        timelineRate,
        0,
        length,
        2,
      );
      const source = new CorrectedSource(channels, SR);
      source.setPlan(await livePlan(channels, SR, ON));
      const live = playLive(source, SR, clips, timelineRate, start, length);
      const worst = worstDifference(live.out, rendered);
      const dry = organiseChannels({ channels, sampleRate: SR }, clips, timelineRate, start, length, 2);
      console.log(
        `live pitch at ${timelineRate} Hz: max abs difference to the render ${worst.toExponential(2)}, correction moved samples by up to ${worstDifference(dry, rendered).toFixed(3)}`,
      );
      expect(worst).toBeLessThan(TOLERANCE);
      // It is corrected: the dry vocal is far from it, and the worklet's reading says so.
      expect(worstDifference(live.out, dry)).toBeGreaterThan(0.05);
      expect(live.moved).toBeGreaterThan(0.05);
    });
  }

  it('at amount 0 passes the vocal bit for bit', async () => {
    const channels = detunedLine(3, SR);
    const plan = await livePlan(channels, SR, { ...ON, amount: 0 });
    expect(plan.plans.every((p) => p === null)).toBe(true);
    const source = new CorrectedSource(channels, SR);
    source.setPlan(plan);
    const start = 4096 + 17;
    const { clips, length } = arrangement(channels[0]!.length, SR, SR, start);
    const live = playLive(source, SR, clips, SR, start, length);
    const dry = organiseChannels({ channels, sampleRate: SR }, clips, SR, start, length, 2);
    for (let c = 0; c < 2; c++) expect(live.out[c]).toEqual(dry[c]);
    expect(live.moved).toBe(0);
  });

  it('a new curve while playing is heard from the next quantum on', async () => {
    const channels = detunedLine(4, SR);
    const soft = { ...ON, amount: 40, retuneMs: 200 };
    const source = new CorrectedSource(channels, SR);
    source.setPlan(await livePlan(channels, SR, soft));
    const hard = await livePlan(channels, SR, ON);
    const clips: TimelineClip[] = [
      { id: 'v', trackType: 'vocals', sourceStart: 0, sourceEnd: channels[0]!.length, position: 0 },
    ];
    const change = 2 * SR - ((2 * SR) % 128);
    // The first chunks are made before the change with the soft curve; after it, the hard curve rules.
    const live = playLive(source, SR, clips, SR, 0, channels[0]!.length, (f) => {
      if (f === change) source.setPlan(hard);
    });
    const softOut = (await correctPitch(channels, SR, soft)).channels;
    const hardOut = (await correctPitch(channels, SR, ON)).channels;
    const part = (x: Float32Array[], a: number, b: number) => x.map((c) => c.subarray(a, b));
    expect(worstDifference(part(live.out, 0, change), part(softOut, 0, change))).toBeLessThan(TOLERANCE);
    const n = channels[0]!.length;
    expect(worstDifference(part(live.out, change, n), part(hardOut, change, n))).toBeLessThan(TOLERANCE);
    expect(worstDifference(part(softOut, change, n), part(hardOut, change, n))).toBeGreaterThan(0.01);
  });
});
