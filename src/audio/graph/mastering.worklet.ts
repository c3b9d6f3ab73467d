/**
 * AudioWorklet processor running the mastering chain live: the same MasteringProcessor and TruePeakLimiter
 * the offline Worker render runs, so what the user hears while moving a slider is what the download
 * renders (up to the limiter's few-millisecond delay). Settings and the loudness gain arrive as port
 * messages; a level reading (RMS / peak) leaves every 100 ms.
 *
 * Two inputs: input 0 is the track (or, for a mix with stems, its beat), input 1 the mix's vocal stem
 * (issue 18). With a vocal connected, the beat is carved by VocalSpaceProcessor listening to the vocal,
 * then the vocal is added: the mix the render masters (carveBeat, then beat + vocal), before the chain.
 *
 * Built by Vite as a separate module (`?worker&url`), loaded with audioWorklet.addModule.
 */
import {
  DEFAULT_CUSTOM_SETTINGS,
  type MasteringSettings,
  TRUE_PEAK_CEILING_DBTP,
} from '../../shared/mastering';
import { LevelMeter } from '../dsp/level-meter';
import { TruePeakLimiter } from '../dsp/limiter';
import { limiterOptionsFor } from '../dsp/mastering-chain';
import { MasteringProcessor } from '../dsp/mastering-processor';
import { SILENT_VOCAL_PROFILE, VocalSpaceProcessor } from '../dsp/vocal-space';
import {
  MASTERING_PROCESSOR_NAME,
  type MasteringNodeEvent,
  type MasteringNodeMessage,
  type MasteringProcessorOptions,
  type VocalSpaceSetting,
} from './mastering-messages';

// The AudioWorkletGlobalScope is not in the DOM typings this folder is checked with: declare what we use.
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
  constructor(options?: unknown);
}
declare function registerProcessor(
  name: string,
  processorCtor: new (options: { processorOptions?: MasteringProcessorOptions }) => AudioWorkletProcessor,
): void;

const CHANNELS = 2;
const QUANTUM = 128;

class MasteringChainProcessor extends AudioWorkletProcessor {
  #processor: MasteringProcessor;
  #limiter: TruePeakLimiter;
  #limiterKey = '';
  #meter: LevelMeter | null;
  #buffers = [new Float32Array(QUANTUM), new Float32Array(QUANTUM)];
  #vocal = [new Float32Array(QUANTUM), new Float32Array(QUANTUM)];
  #vocalSpace: VocalSpaceProcessor;
  #alive = true;

  constructor(options: { processorOptions?: MasteringProcessorOptions }) {
    super(options);
    const o = options.processorOptions;
    const settings = o?.settings ?? DEFAULT_CUSTOM_SETTINGS;
    this.#processor = new MasteringProcessor(sampleRate, CHANNELS, settings, o?.adaptive ?? null);
    this.#limiter = this.#limiterFor(settings);
    this.#limiter.inputGain = 10 ** ((o?.gainDb ?? 0) / 20);
    this.#vocalSpace = new VocalSpaceProcessor(sampleRate, CHANNELS, SILENT_VOCAL_PROFILE, 0);
    this.#setVocalSpace(o?.vocalSpace ?? null);
    const interval = o?.meterIntervalMs ?? 100;
    this.#meter =
      interval > 0
        ? new LevelMeter(
            sampleRate,
            (r) => this.#post({ type: 'level', rms: r.rms, peak: r.peak, rmsDb: r.rmsDb, peakDb: r.peakDb }),
            interval,
          )
        : null;
    this.port.onmessage = (event: MessageEvent<MasteringNodeMessage>) => this.#onMessage(event.data);
    this.#post({ type: 'ready', latencyFrames: this.#limiter.latency });
  }

  /**
   * The same limiter the offline render uses for these settings (release and the peak compressor follow
   * loudness, decision 265); the key says when a settings change needs a new one.
   */
  #limiterFor(settings: MasteringSettings): TruePeakLimiter {
    const options = limiterOptionsFor(TRUE_PEAK_CEILING_DBTP, settings);
    this.#limiterKey = JSON.stringify(options);
    return new TruePeakLimiter(sampleRate, CHANNELS, options);
  }

  /** A new profile or amount keeps the detectors' and filters' state (no click while playing). */
  #setVocalSpace(setting: VocalSpaceSetting | null): void {
    this.#vocalSpace.setProfile(setting?.profile ?? SILENT_VOCAL_PROFILE);
    this.#vocalSpace.setAmount(setting?.amount ?? 0);
  }

  #post(event: MasteringNodeEvent): void {
    this.port.postMessage(event);
  }

  #onMessage(message: MasteringNodeMessage): void {
    if (message.type === 'settings') {
      this.#processor.update(message.settings);
      // A new release time or peak stage needs a new limiter; the input gain carries over.
      if (JSON.stringify(limiterOptionsFor(TRUE_PEAK_CEILING_DBTP, message.settings)) !== this.#limiterKey) {
        const gain = this.#limiter.inputGain;
        this.#limiter = this.#limiterFor(message.settings);
        this.#limiter.inputGain = gain;
      }
    } else if (message.type === 'gain') this.#limiter.inputGain = 10 ** (message.gainDb / 20);
    else if (message.type === 'adaptive') this.#processor.setAdaptive(message.plan);
    else if (message.type === 'vocalSpace') this.#setVocalSpace(message.setting);
    else if (message.type === 'reset') {
      this.#processor.reset();
      this.#vocalSpace.reset();
      this.#limiter.reset();
    } else if (message.type === 'dispose') this.#alive = false;
  }

  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const input = inputs[0] ?? [];
    const output = outputs[0] ?? [];
    const frames = output[0]?.length ?? QUANTUM;
    const [left, right] = this.#buffers as [Float32Array, Float32Array];
    // The node's input is fixed at two channels (explicit, speakers): mono arrives on both, so it stays mono.
    if (input.length > 0) {
      left.set(input[0]!.subarray(0, frames));
      right.set((input[1] ?? input[0]!).subarray(0, frames));
    } else {
      left.fill(0);
      right.fill(0);
    }
    const vocalIn = inputs[1] ?? [];
    if (vocalIn.length > 0) {
      // The mix of the stems: the carved beat plus the vocal, as the render builds it.
      const [vl, vr] = this.#vocal as [Float32Array, Float32Array];
      vl.set(vocalIn[0]!.subarray(0, frames));
      vr.set((vocalIn[1] ?? vocalIn[0]!).subarray(0, frames));
      this.#vocalSpace.process(this.#buffers, this.#vocal, 0, frames);
      for (let i = 0; i < frames; i++) {
        left[i] = left[i]! + vl[i]!;
        right[i] = right[i]! + vr[i]!;
      }
    }
    this.#processor.process(this.#buffers, 0, frames);
    this.#limiter.process(this.#buffers, this.#buffers, 0, frames);
    this.#meter?.push(this.#buffers, 0, frames);
    if (output.length === 1) {
      const out = output[0]!;
      for (let i = 0; i < frames; i++) out[i] = 0.5 * (left[i]! + right[i]!);
    } else {
      output[0]?.set(left.subarray(0, frames));
      output[1]?.set(right.subarray(0, frames));
    }
    return this.#alive;
  }
}

registerProcessor(MASTERING_PROCESSOR_NAME, MasteringChainProcessor);
