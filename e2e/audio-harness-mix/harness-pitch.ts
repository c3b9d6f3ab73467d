/**
 * The live pitch AudioWorklet (decision 260) in real Chromium: the mix worker's grain plan played by the
 * worklet in an OfflineAudioContext, against the offline correction (correctPitch, as renderMix runs it)
 * laid out by the render's organiser.
 */
import { correctPitch } from '../../src/audio/dsp/pitch/correct-pitch';
import { detunedLine } from '../../src/audio/dsp/pitch/detuned-line.test-helper';
import { buildLivePitchVocal } from '../../src/audio/graph/pitch-vocal-node';
import type { TimelineClip } from '../../src/audio/model/clip';
import { organiseChannels } from '../../src/audio/render/mix-organise';
import type { MixClient } from '../../src/audio/workers/mix-client';
import type { PitchSettings } from '../../src/shared/pitch-settings';

const SR = 44_100;

export const pitchHarness = (mix: () => MixClient) => ({
  /** Largest difference between the worklet's output and the offline corrected, organised vocal. */
  async liveEquality(amount: number, timelineRate: number) {
    const settings: PitchSettings = {
      amount,
      retuneMs: 20,
      humanize: 0,
      key: { tonic: 9, mode: 'minor' },
      followSongKey: false,
    };
    const source = detunedLine(4, SR);
    const client = mix();
    await client.setSource('vocals', source, SR);
    const view = await client.pitchCurve(settings);
    client.dispose();
    if (!view) throw new Error('no pitch curve');
    const toTimeline = (n: number) => Math.round((n * timelineRate) / SR);
    const cut = toTimeline(Math.round(source[0]!.length * 0.45));
    const end = toTimeline(source[0]!.length);
    const lead = 4096;
    const clips: TimelineClip[] = [
      { id: 'a', trackType: 'vocals', sourceStart: 0, sourceEnd: cut, position: lead },
      {
        id: 'b',
        trackType: 'vocals',
        sourceStart: cut,
        sourceEnd: end,
        position: lead + cut + timelineRate / 2,
      },
    ];
    const length = lead + end + timelineRate;
    const ctx = new OfflineAudioContext(2, length, timelineRate);
    const vocal = await buildLivePitchVocal(ctx, { workletUrl: '/pitch-worklet.js' });
    vocal.node.connect(ctx.destination);
    await vocal.setSource(
      source.map((c) => c.slice()),
      SR,
    );
    vocal.play(clips);
    // Acknowledged after 'play' (one port, in order): the worklet holds the clips before rendering starts.
    await vocal.setPlan(view.live);
    const rendered = await ctx.startRendering();
    const offline = amount > 0 ? (await correctPitch(source, SR, settings)).channels : source;
    const expected = organiseChannels(
      { channels: offline, sampleRate: SR },
      clips,
      timelineRate,
      0,
      length,
      2,
    );
    const dry = organiseChannels({ channels: source, sampleRate: SR }, clips, timelineRate, 0, length, 2);
    let worst = 0;
    let differing = 0;
    let moved = 0;
    for (let c = 0; c < 2; c++) {
      const live = rendered.getChannelData(c);
      for (let i = 0; i < length; i++) {
        const d = Math.abs(live[i]! - expected[c]![i]!);
        if (d > 0) differing++;
        worst = Math.max(worst, d);
        moved = Math.max(moved, Math.abs(live[i]! - dry[c]![i]!));
      }
    }
    return {
      worst,
      differing,
      moved,
      frames: rendered.length,
      corrected: view.live.plans.filter((p) => p).length,
    };
  },
});
