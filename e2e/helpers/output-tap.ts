/**
 * A tap on what the page sends to the speakers: every connection to an AudioContext's destination is also
 * made to a splitter whose channels are summed, in the audio graph, into a mid ((L+R)/2) and a side
 * ((L-R)/2) analyser of that context, so a spec reads the audio output itself (the single page's specs read
 * its level meter, which hears one mono sum). The side is formed sample by sample in the graph, not from a
 * left and a right analyser read one after the other: a render quantum between two reads shifts one channel
 * against the other by 128 frames, and music read that way is "wide" however mono it plays (seen in CI).
 */
import type { Page } from '@playwright/test';

interface Tap {
  context: BaseAudioContext;
  mid: AnalyserNode;
  side: AnalyserNode;
}

/** Installs the tap; call before the page is opened (it runs in every document the page loads). */
export const tapOutput = (page: Page) =>
  page.addInitScript(() => {
    const taps: Tap[] = [];
    (window as unknown as { __outputTaps: Tap[] }).__outputTaps = taps;
    const connect = AudioNode.prototype.connect as (this: AudioNode, ...args: unknown[]) => unknown;
    AudioNode.prototype.connect = function (this: AudioNode, ...args: unknown[]) {
      const target = args[0];
      if (target instanceof AudioDestinationNode) {
        const context = target.context;
        let tap = taps.find((t) => t.context === context);
        if (!tap) {
          const splitter = context.createChannelSplitter(2);
          tap = { context, mid: context.createAnalyser(), side: context.createAnalyser() };
          for (const [channel, sign] of [
            [0, 1],
            [1, -1],
          ] as const) {
            const toMid = new GainNode(context, { gain: 0.5 });
            const toSide = new GainNode(context, { gain: 0.5 * sign });
            connect.call(splitter, toMid, channel);
            connect.call(splitter, toSide, channel);
            connect.call(toMid, tap.mid);
            connect.call(toSide, tap.side);
          }
          // A silent source keeps the tap fed: an analyser whose inputs all stopped keeps its last
          // samples, and this context's last sound would be read as if it still played.
          const keep = new ConstantSourceNode(context as AudioContext, { offset: 0 });
          connect.call(keep, splitter);
          keep.start();
          (tap as Tap & { splitter: AudioNode }).splitter = splitter;
          taps.push(tap);
        }
        connect.call(this, (tap as Tap & { splitter: AudioNode }).splitter);
      }
      return connect.apply(this, args);
    } as typeof AudioNode.prototype.connect;
  });

/**
 * How wide the output is over `ms`: the side's energy over the mid's, dB, summed over readings every 25 ms;
 * null when nothing sounded. A mono output reads far below -40 dB (its side is exactly zero).
 */
export const outputWidth = (page: Page, ms: number) =>
  page.evaluate(async (duration) => {
    const taps = (window as unknown as { __outputTaps: Tap[] }).__outputTaps;
    let side = 0;
    let mid = 0;
    const end = performance.now() + duration;
    while (performance.now() < end) {
      for (const tap of taps) {
        const m = new Float32Array(tap.mid.fftSize);
        const s = new Float32Array(tap.side.fftSize);
        tap.mid.getFloatTimeDomainData(m);
        tap.side.getFloatTimeDomainData(s);
        for (let i = 0; i < m.length; i++) {
          side += s[i]! ** 2;
          mid += m[i]! ** 2;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return mid > 1e-9 ? 10 * Math.log10(Math.max(side, 1e-12) / mid) : null;
  }, ms);
