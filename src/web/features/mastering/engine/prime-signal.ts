import { yieldToEventLoop } from '../../../../audio/event-loop';

/** Frames made per task: the page stays responsive while the prime's music is made (a few ms each). */
const SLICE = 1 << 15;

/**
 * A few seconds of generated music for the prime of the render workers (decision 298), made on the page in a
 * few milliseconds: a kick every half second (a decaying 55 Hz sine from a phasor turned a step per sample,
 * not Math.sin per sample), a 110 Hz saw bass and noise hats on the off-beats, the hats a little apart left and
 * right. What it sounds like does not matter; every stage of the chain works on it (the kicks drive the
 * compressors and the limiter). The demo tracks' generator (audio/synth-music) took 150-370 ms of the main
 * thread for the same six seconds, in the task of the file choice. Made a slice per task.
 */
export const primeSignal = async (seconds: number, sampleRate: number): Promise<Float32Array[]> => {
  const frames = Math.round(seconds * sampleRate);
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  const beat = Math.round(sampleRate / 2);
  const turn = (2 * Math.PI * 55) / sampleRate;
  const cos = Math.cos(turn);
  const sin = Math.sin(turn);
  const kickDecay = Math.exp(-9 / sampleRate);
  const hatDecay = Math.exp(-60 / sampleRate);
  const bassStep = (2 * 110) / sampleRate;
  let x = 0;
  let y = 0;
  let kick = 0;
  let hat = 0;
  let bass = 0;
  let seed = 0x2545f491;
  for (let i = 0; i < frames; i++) {
    if (i % SLICE === 0) await yieldToEventLoop();
    const inBeat = i % beat;
    if (inBeat === 0) {
      x = 1;
      y = 0;
      kick = 0.9;
    } else if (inBeat === beat >> 1) hat = 0.25;
    const turned = x * cos - y * sin;
    y = x * sin + y * cos;
    x = turned;
    kick *= kickDecay;
    hat *= hatDecay;
    bass += bassStep;
    if (bass > 1) bass -= 2;
    seed = (Math.imul(seed, 1664525) + 1013904223) | 0;
    const noise = (hat * seed) / 2147483648;
    const common = y * kick + 0.2 * bass;
    left[i] = 0.4 * (common + noise);
    right[i] = 0.4 * (common - 0.8 * noise);
  }
  return [left, right];
};
