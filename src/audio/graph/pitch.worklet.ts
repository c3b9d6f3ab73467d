/**
 * AudioWorklet processor playing the mixer's vocal with its pitch corrected (issue 27, decision 260): the
 * offline shifter's own code (renderRunSpan, through CorrectedSource) on the worker's grain plan, laid out
 * by the render's own organiseInto, so what the user hears is the mixdown's corrected vocal stem. The
 * source arrives once (transferred); a new correction curve is a new plan and takes effect at the next
 * chunk, so the sound follows the sliders while playing.
 *
 * Built by Vite as a separate module (`?worker&url`), loaded with audioWorklet.addModule.
 */
import { CorrectedSource } from '../dsp/pitch/corrected-source';
import type { TimelineClip } from '../model/clip';
import { renderLiveVocal } from '../render/live-vocal';
import { PITCH_PROCESSOR_NAME, type PitchNodeEvent, type PitchNodeMessage } from './pitch-messages';

declare const sampleRate: number;
declare const currentFrame: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
  constructor(options?: unknown);
}
declare function registerProcessor(
  name: string,
  processorCtor: new (options?: unknown) => AudioWorkletProcessor,
): void;

const QUANTUM = 128;
/** Frames between the live readings posted to the page (100 ms). */
const REPORT_SECONDS = 0.1;

class LivePitchProcessor extends AudioWorkletProcessor {
  #source: CorrectedSource | null = null;
  #sourceRate = sampleRate;
  #clips: TimelineClip[] = [];
  #playing = false;
  #scratch = [new Float32Array(QUANTUM), new Float32Array(QUANTUM)];
  #alive = true;
  #reportFrames = 0;
  #reportMoved = 0;

  constructor(options?: unknown) {
    super(options);
    this.port.onmessage = (event: MessageEvent<PitchNodeMessage>) => this.#onMessage(event.data);
  }

  #post(event: PitchNodeEvent): void {
    this.port.postMessage(event);
  }

  #onMessage(message: PitchNodeMessage): void {
    if (message.type === 'source') {
      this.#source = message.channels ? new CorrectedSource(message.channels, message.sampleRate) : null;
      this.#sourceRate = message.sampleRate;
      this.#post({ type: 'source', frames: this.#source?.length ?? 0 });
    } else if (message.type === 'plan') {
      this.#source?.setPlan(message.plan);
      // Readings from here on describe the new correction only.
      this.#reportFrames = 0;
      this.#reportMoved = 0;
      this.#post({ type: 'plan', corrected: !!message.plan?.plans.some((p) => p) });
    } else if (message.type === 'play') {
      this.#clips = message.clips;
      this.#playing = true;
    } else if (message.type === 'stop') {
      this.#playing = false;
      this.#clips = [];
    } else if (message.type === 'dispose') this.#alive = false;
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const output = outputs[0] ?? [];
    const frames = output[0]?.length ?? QUANTUM;
    const source = this.#source;
    if (!this.#playing || !source) return this.#alive;
    const scratch = frames === QUANTUM ? this.#scratch : [new Float32Array(frames), new Float32Array(frames)];
    const moved = renderLiveVocal(source, this.#sourceRate, this.#clips, sampleRate, currentFrame, scratch);
    for (let c = 0; c < output.length; c++) output[c]!.set(scratch[Math.min(c, scratch.length - 1)]!);
    this.#reportFrames += frames;
    this.#reportMoved = Math.max(this.#reportMoved, moved);
    if (this.#reportFrames >= REPORT_SECONDS * sampleRate) {
      this.#post({ type: 'live', frames: this.#reportFrames, moved: this.#reportMoved });
      this.#reportFrames = 0;
      this.#reportMoved = 0;
    }
    return this.#alive;
  }
}

registerProcessor(PITCH_PROCESSOR_NAME, LivePitchProcessor);
