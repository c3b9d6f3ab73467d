/**
 * The mix worker's handlers, apart from the worker entry so they can be served over any message port
 * (Node tests use a MessageChannel). Each call of `createMixHandlers` keeps its own sources.
 */

import type { Genre } from '../../shared/genres';
import { pitchCorrectionActive, runsOfSource, trackSource } from '../dsp/pitch/correct-pitch';
import { livePitchPlan } from '../dsp/pitch/corrected-source';
import { buildCorrectionCurve } from '../dsp/pitch/correction-curve';
import { analyseVocal, type VocalAnalysis } from '../dsp/vocal/analyse-vocal';
import { chainIsOn } from '../dsp/vocal/vocal-chain';
import { yieldToEventLoop } from '../event-loop';
import type { TrackType } from '../model/clip';
import { MIX_STYLES } from '../model/mix-styles';
import type { MixSource } from '../render/mix-organise';
import { organiseChannels, sourceAsStem, stemChannelCount } from '../render/mix-organise';
import {
  MIX_ERRORS,
  type MixRenderSettings,
  measureStems,
  renderMix,
  type StemLoudness,
} from '../render/mix-render';
import type { MixProgress } from '../render/mix-stages';
import { throttleProgress, yieldEvery } from './encode-yield';
import type { MixApi, MixTimeline } from './mix-protocol';
import { buffersOf, type RpcHandlers, throwIfAborted, transferring } from './worker-rpc';

/** Every stage change and the end get through; in between, a report every 50 ms is plenty for a bar. */
const stageProgress = (report: (p: MixProgress) => void) =>
  throttleProgress<MixProgress>(
    report,
    (p) => p.overall >= 1,
    (p, previous) => p.stage !== previous?.stage,
  );

export const createMixHandlers = (): RpcHandlers<MixApi> => {
  const sources: Partial<Record<TrackType, MixSource>> = {};
  /** The last vocal analysis and what it was made of (a new vocal source clears it). */
  let analysed: { key: string; analysis: VocalAnalysis } | null = null;
  /**
   * The stems' loudness the previews measured over the whole timeline, and what it was measured on (the
   * sources' generation, bumped by every source change, and the timeline). The mixdown of the same sources
   * and timeline measures exactly this (the same stems through the same meter), so it takes it instead of
   * measuring both stems again (decision 290). Not with pitch correction: the mixdown measures the corrected
   * vocal.
   */
  let measured: { key: string; loudness: StemLoudness } | null = null;
  let generation = 0;
  const loudnessKey = (timeline: MixTimeline) =>
    JSON.stringify([generation, timeline.sampleRate, timeline.length, timeline.clips]);

  const analysisKey = (timeline: MixTimeline, genre: Genre | undefined) =>
    JSON.stringify([
      timeline.sampleRate,
      timeline.length,
      genre ?? null,
      timeline.clips.filter((c) => c.trackType === 'vocals'),
    ]);

  /** The vocal's analysis over the whole timeline, from the cache when the vocal, clips and genre match. */
  const vocalAnalysisFor = (
    timeline: MixTimeline,
    genre: Genre | undefined,
    onProgress?: (f: number) => void,
  ): VocalAnalysis | null => {
    const vocals = sources.vocals;
    if (!vocals) return null;
    const key = analysisKey(timeline, genre);
    if (analysed?.key === key) return analysed.analysis;
    const clips = timeline.clips.filter((c) => c.trackType === 'vocals');
    const { sampleRate, length } = timeline;
    const stem =
      sourceAsStem(vocals, clips, sampleRate, 0, length) ??
      organiseChannels(vocals, clips, sampleRate, 0, length, stemChannelCount(vocals));
    const analysis = analyseVocal(stem, sampleRate, genre, onProgress);
    analysed = { key, analysis };
    return analysis;
  };

  const inputOf = (timeline: MixTimeline, settings?: Pick<MixRenderSettings, 'genre' | 'vocalChain'>) => ({
    vocals: sources.vocals ?? null,
    instrumental: sources.instrumental ?? null,
    clips: timeline.clips,
    sampleRate: timeline.sampleRate,
    length: timeline.length,
    tempoBpm: timeline.tempoBpm,
    vocalAnalysis:
      settings && chainIsOn(settings.genre, settings.vocalChain)
        ? (vocalAnalysisFor(timeline, settings.genre) ?? undefined)
        : undefined,
  });

  /** The whole timeline's mixdown (with its two buses when `stems`): both sources are required. */
  const wholeMix = async (
    timeline: MixTimeline,
    settings: MixRenderSettings,
    { signal, progress }: { signal: AbortSignal; progress: (p: MixProgress) => void },
    stems: boolean,
  ) => {
    if (!sources.vocals || !sources.instrumental) throw new Error(MIX_ERRORS.missingBuffers);
    const key = loudnessKey(timeline);
    const loudness =
      measured?.key === key && !pitchCorrectionActive(settings.pitch) ? measured.loudness : undefined;
    return renderMix(inputOf(timeline, settings), settings, {
      loudness,
      signal,
      onProgress: stageProgress(progress),
      between: yieldEvery(),
      stems,
    });
  };

  return {
    setSource: ({ trackType, channelCount, length, sampleRate }) => {
      if (trackType === 'vocals') analysed = null;
      generation++;
      if (channelCount === 0 || length === 0) {
        delete sources[trackType];
        return { frames: 0 };
      }
      sources[trackType] = {
        channels: Array.from({ length: channelCount }, () => new Float32Array(length)),
        sampleRate,
      };
      return { frames: length };
    },

    sourceChunk: ({ trackType, channel, offset, data }) => {
      const channels = sources[trackType]?.channels;
      const target = channels?.[channel];
      if (!channels || !target || offset + data.length > target.length)
        throw new RangeError(`No room for ${trackType} samples`);
      generation++;
      // A whole channel (moved here) is kept as it came; a slice is copied into place.
      if (offset === 0 && data.length === target.length) channels[channel] = data;
      else target.set(data, offset);
      return null;
    },

    mixdown: async ({ timeline, settings }, context) => {
      const result = await wholeMix(timeline, settings, context, false);
      return transferring(result, buffersOf(result.channels));
    },

    stems: async ({ timeline, settings }, context) => {
      const result = await wholeMix(timeline, settings, context, true);
      const stems = result.stems!;
      const buffers = buffersOf([...result.channels, ...stems.vocals, ...stems.instrumental]);
      return transferring({ ...result, stems }, buffers);
    },

    previews: async (
      { timeline, window, outputVolume, styles, genre, vocalChain, pitch },
      { signal, progress },
    ) => {
      const input = inputOf(timeline, { genre, vocalChain });
      progress({ style: null, index: 0, count: styles.length, progress: null });
      // One measurement of the whole timeline, so each 10 s window is balanced as the full mix would be.
      const key = loudnessKey(timeline);
      const loudness = measured?.key === key ? measured.loudness : measureStems(input);
      measured = { key, loudness };
      await yieldToEventLoop();
      throwIfAborted(signal);
      const previews: MixApi['previews']['response']['previews'] = [];
      for (const [index, style] of styles.entries()) {
        const result = await renderMix(
          input,
          { vocalShare: MIX_STYLES[style].vocalShare, outputVolume, genre, vocalChain, pitch },
          {
            window,
            loudness,
            allowMissing: true,
            signal,
            between: yieldEvery(),
            onProgress: stageProgress((p) => progress({ style, index, count: styles.length, progress: p })),
          },
        );
        previews.push({ style, channels: result.channels, sampleRate: result.sampleRate });
      }
      return transferring({ previews, loudness }, buffersOf(previews.flatMap((p) => p.channels)));
    },

    analyseVocal: async ({ timeline, genre }, { signal, progress }) => {
      await yieldToEventLoop();
      throwIfAborted(signal);
      return vocalAnalysisFor(timeline, genre, progress);
    },

    pitchCurve: async ({ settings }, { signal, progress, hold }) => {
      const source = sources.vocals;
      if (!source) return null;
      // Called with the page's press gate: the tracking holds while a press is handled (decision 308).
      const track = await trackSource(source.channels, source.sampleRate, {
        signal,
        onProgress: progress,
        checkpoint: hold,
      });
      const { detected, target, corrected, ratio } = buildCorrectionCurve(track, settings);
      // The live path's grain plan for this curve (decision 260); the runs are the cached ones, so cloned.
      const live = livePitchPlan(runsOfSource(source.channels, track), ratio, track.hop, track.sampleRate);
      const view = { hop: track.hop, sampleRate: track.sampleRate, detected, target, corrected, live };
      const plans = live.plans.flatMap((p) => (p ? [p.at.buffer, p.grain.buffer] : []));
      return transferring(view, [...buffersOf([detected, target, corrected]), ...(plans as ArrayBuffer[])]);
    },
  };
};
