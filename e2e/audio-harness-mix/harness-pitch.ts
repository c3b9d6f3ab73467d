/**
 * The live pitch AudioWorklet (decision 260) in real Chromium: the mix worker's grain plan played by the
 * worklet in an OfflineAudioContext, against the offline correction (correctPitch, as renderMix runs it)
 * laid out by the render's organiser.
 */
import { correctPitch } from '../../src/audio/dsp/pitch/correct-pitch';
import { buildLivePitchVocal } from '../../src/audio/graph/pitch-vocal-node';
import type { TimelineClip } from '../../src/audio/model/clip';
import { organiseChannels } from '../../src/audio/render/mix-organise';
import type { MixClient } from '../../src/audio/workers/mix-client';
import type { PitchSettings } from '../../src/shared/pitch-settings';

const SR = 44_100;

/** A stereo sung line: harmonic notes 25-40 cents off A minor, with rests and a little vibrato. */
const detunedLine = (seconds: number): Float32Array[] => {
  const notes = [57.3, 60.35, 64.28, 62.4, 59.7];
  const n = Math.round(seconds * SR);
  const left = new Float32Array(n);
  const right = new Float32Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const t = i / SR;
    const slot = t % 0.8;
    if (slot > 0.65) continue;
    const midi = notes[Math.floor(t / 0.8) % notes.length]! + 0.1 * Math.sin(2 * Math.PI * 5.5 * t);
    phase += (2 * Math.PI * 440 * 2 ** ((midi - 69) / 12)) / SR;
    let v = 0;
    for (let h = 1; h <= 8; h++) v += Math.sin(h * phase) / h;
    const env = Math.min(1, slot / 0.02, (0.65 - slot) / 0.02);
    left[i] = 0.2 * env * v;
    right[i] = 0.15 * env * v + 0.002 * Math.sin(i * 0.37);
  }
  return [left, right];
};

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
    const source = detunedLine(4);
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
