/**
 * A tap on what the page sends to the speakers: every connection to an AudioContext's destination is also
 * made, through a channel splitter, to a left and a right analyser of that context, so a spec reads the
 * audio output itself (the single page's specs read its level meter, which hears one mono sum).
 */
import type { Page } from '@playwright/test';

interface Tap {
  context: BaseAudioContext;
  left: AnalyserNode;
  right: AnalyserNode;
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
          tap = { context, left: context.createAnalyser(), right: context.createAnalyser() };
          connect.call(splitter, tap.left, 0);
          connect.call(splitter, tap.right, 1);
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
 * How wide the output is over `ms`: the side's energy over the mid's, dB ((L-R) against (L+R), summed over
 * readings every 25 ms); null when nothing sounded. A mono output reads far below -40 dB.
 */
export const outputWidth = (page: Page, ms: number) =>
  page.evaluate(async (duration) => {
    const taps = (window as unknown as { __outputTaps: Tap[] }).__outputTaps;
    let side = 0;
    let mid = 0;
    const end = performance.now() + duration;
    while (performance.now() < end) {
      for (const tap of taps) {
        const l = new Float32Array(tap.left.fftSize);
        const r = new Float32Array(tap.right.fftSize);
        tap.left.getFloatTimeDomainData(l);
        tap.right.getFloatTimeDomainData(r);
        for (let i = 0; i < l.length; i++) {
          side += (l[i]! - r[i]!) ** 2;
          mid += (l[i]! + r[i]!) ** 2;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return mid > 1e-9 ? 10 * Math.log10(Math.max(side, 1e-12) / mid) : null;
  }, ms);
