/**
 * Playback of the original and the master through one Web Audio graph:
 *
 *   original ─┬─(manual live preview: the mastering chain worklet)──────────── gain A ─┐
 *   (a mix with stems plays its beat and vocal into the worklet's two inputs: vocal space, issue 18)
 *   master ───┴─ preview mute ─ platform gain ──────────────────────────────── gain B ─┴─ bus ─┬─ volume ─ speakers
 *                                                                                   └─ analyser (meter)
 *
 * When the master plays, the original plays beside it in sync so the A/B switch is instant (only the two
 * gains move). The preview mute is scheduled on the audio clock, not with timers. The platform gain is what a
 * streaming platform's normalisation applies (the "How it will play" panel); it moves live while playing.
 */
import {
  type AdaptivePlan,
  buildMasteringChain,
  LevelMeter,
  type MasteringChain,
  type VocalSpaceSetting,
} from '../engine/engine-api';
import type { MasteringSettings } from '../mastering-constants';
import { MUTE_LENGTH_S, muteWindowStarts } from '../mastering-rules';

export type PlayKind = 'original' | 'mastered';
export type Listen = 'original' | 'master';

interface Running {
  kind: PlayKind;
  sources: AudioBufferSourceNode[];
  startedAt: number;
  offset: number;
  duration: number;
}

const RAMP = 0.004;

export class MasteringPlayer {
  #ctx: AudioContext | null = null;
  #bus!: GainNode;
  #volume!: GainNode;
  #analyser!: AnalyserNode;
  #gainA!: GainNode;
  #gainB!: GainNode;
  #mute!: GainNode;
  #platform!: GainNode;
  #live: MasteringChain | null = null;
  #liveSettings: MasteringSettings | null = null;
  /** The render's adaptive stages for the live chain (from the worker's plan); null until planned. */
  #liveAdaptive: AdaptivePlan | null = null;
  /** Vocal space for the live chain (issue 18); null: off. */
  #vocalSpace: VocalSpaceSetting | null = null;
  #running: Running | null = null;
  #volumeValue = 75;
  #listen: Listen = 'master';
  #matched = { original: 1, master: 1 };
  #samples: Float32Array<ArrayBuffer> = new Float32Array(0);
  onEnded: (() => void) | null = null;

  /** The running context, created on the first play (a user gesture). */
  async context(): Promise<AudioContext> {
    if (!this.#ctx) {
      const ctx = new AudioContext({ latencyHint: 'interactive' });
      this.#bus = ctx.createGain();
      this.#volume = ctx.createGain();
      this.#analyser = ctx.createAnalyser();
      const windowFrames = Math.round(ctx.sampleRate / 10);
      this.#analyser.fftSize = 2 ** Math.ceil(Math.log2(windowFrames));
      this.#samples = new Float32Array(this.#analyser.fftSize);
      this.#gainA = ctx.createGain();
      this.#gainB = ctx.createGain();
      this.#mute = ctx.createGain();
      this.#platform = ctx.createGain();
      this.#mute.connect(this.#platform);
      this.#platform.connect(this.#gainB);
      this.#gainA.connect(this.#bus);
      this.#gainB.connect(this.#bus);
      this.#bus.connect(this.#analyser);
      this.#bus.connect(this.#volume);
      this.#volume.connect(ctx.destination);
      this.#ctx = ctx;
      this.setVolume(this.#volumeValue);
    }
    if (this.#ctx.state !== 'running') await this.#ctx.resume();
    return this.#ctx;
  }

  get playing(): PlayKind | null {
    return this.#running?.kind ?? null;
  }

  /** Seconds into the track being played. */
  position(): number {
    const r = this.#running;
    if (!r || !this.#ctx) return 0;
    return Math.min(r.duration, r.offset + (this.#ctx.currentTime - r.startedAt));
  }

  duration(): number {
    return this.#running?.duration ?? 0;
  }

  /** Spec 9: playback gain volume/100 × 0.8 (playback only). */
  setVolume(volume: number): void {
    this.#volumeValue = volume;
    if (this.#ctx) this.#volume.gain.setTargetAtTime((volume / 100) * 0.8, this.#ctx.currentTime, 0.01);
  }

  /**
   * The original, optionally through the live mastering chain (manual mode): slider moves reach the worklet
   * as messages and are heard within one render quantum plus the limiter's lookahead.
   */
  async playOriginal(
    buffer: AudioBuffer,
    live: { settings: MasteringSettings; gainDb: number } | null,
    stems: { beat: AudioBuffer; vocal: AudioBuffer } | null = null,
    offset = 0,
    level = 1,
  ) {
    const ctx = await this.context();
    this.stop();
    const sources: AudioBufferSourceNode[] = [];
    if (live) {
      const chain = await this.#chain(ctx, live.settings);
      chain.update(live.settings);
      chain.setAdaptive(this.#liveAdaptive);
      chain.setGainDb(live.gainDb);
      chain.setVocalSpace(this.#vocalSpace);
      if (stems) {
        // The mix as its stems: beat on input 0, vocal on input 1 (carved, then added, in the worklet).
        const beat = new AudioBufferSourceNode(ctx, { buffer: stems.beat });
        const vocal = new AudioBufferSourceNode(ctx, { buffer: stems.vocal });
        beat.connect(chain.input);
        vocal.connect(chain.input, 0, chain.vocalInput);
        sources.push(beat, vocal);
      } else {
        const source = new AudioBufferSourceNode(ctx, { buffer });
        source.connect(chain.input);
        sources.push(source);
      }
    } else {
      const source = new AudioBufferSourceNode(ctx, { buffer });
      source.connect(this.#gainA);
      sources.push(source);
    }
    this.#setGains(ctx, level, 0);
    this.#start(ctx, 'original', sources, sources[0]!.buffer!.duration, offset);
  }

  /** Vocal space for the live chain; heard within one render quantum when the stems play through it. */
  setVocalSpace(setting: VocalSpaceSetting | null): void {
    this.#vocalSpace = setting;
    this.#live?.setVocalSpace(setting);
  }

  /**
   * The master (or a version of it: as a platform plays it, through a codec), with the original running
   * beside it for A/B; `muted` schedules the preview mute windows; `gainDb` is a platform's normalisation;
   * `offset` starts both at that many seconds in.
   */
  async playMastered(
    master: AudioBuffer,
    original: AudioBuffer | null,
    options: {
      muted: boolean;
      matched: { original: number; master: number };
      gainDb?: number;
      offset?: number;
    },
  ) {
    const ctx = await this.context();
    this.stop();
    this.#matched = options.matched;
    this.#platform.gain.cancelScheduledValues(0);
    this.#platform.gain.value = 10 ** ((options.gainDb ?? 0) / 20);
    const offset = Math.min(Math.max(0, options.offset ?? 0), master.duration);
    const sources = [new AudioBufferSourceNode(ctx, { buffer: master })];
    sources[0]!.connect(this.#mute);
    if (original) {
      const a = new AudioBufferSourceNode(ctx, { buffer: original });
      a.connect(this.#gainA);
      sources.push(a);
    }
    const at = ctx.currentTime + 0.03;
    this.#mute.gain.cancelScheduledValues(0);
    this.#mute.gain.setValueAtTime(1, at);
    if (options.muted) {
      // Window times are track positions; the audio clock reads them offset seconds earlier.
      for (const start of muteWindowStarts(offset, master.duration)) {
        const t = at + start - offset;
        if (t + MUTE_LENGTH_S <= at) continue;
        // Started inside a window (a restart mid-track): silent from the first sample.
        if (t - RAMP < at) this.#mute.gain.setValueAtTime(0, at);
        else {
          this.#mute.gain.setValueAtTime(1, t - RAMP);
          this.#mute.gain.linearRampToValueAtTime(0, t);
        }
        this.#mute.gain.setValueAtTime(0, t + MUTE_LENGTH_S - RAMP);
        this.#mute.gain.linearRampToValueAtTime(1, t + MUTE_LENGTH_S);
      }
    }
    this.#applyListen(ctx);
    this.#start(ctx, 'mastered', sources, master.duration, offset, at);
  }

  /** The buffer the B side plays now (null when stopped or playing the original). */
  get masterBuffer(): AudioBuffer | null {
    const r = this.#running;
    return r?.kind === 'mastered' ? (r.sources[0]?.buffer ?? null) : null;
  }

  /** A platform's gain and the new loudness match, live while the same buffer plays. */
  setPlatformGain(gainDb: number, matched: { original: number; master: number }): void {
    this.#matched = matched;
    if (!this.#ctx) return;
    this.#platform.gain.setTargetAtTime(10 ** (gainDb / 20), this.#ctx.currentTime, RAMP);
    if (this.#running?.kind === 'mastered') this.#applyListen(this.#ctx);
  }

  /** Instant loudness-matched A/B while the master plays. */
  setListen(listen: Listen): void {
    this.#listen = listen;
    if (this.#ctx && this.#running?.kind === 'mastered') this.#applyListen(this.#ctx);
  }

  get listen(): Listen {
    return this.#listen;
  }

  /**
   * Builds the live chain ahead of need (its worklet module loads once), so a Master Track click while the
   * original plays is heard without waiting for it (decision 142). Silent until a source is connected.
   */
  async prepareLive(settings: MasteringSettings): Promise<void> {
    await this.#chain(await this.context(), settings);
  }

  updateLive(settings: MasteringSettings, gainDb: number, adaptive?: AdaptivePlan | null): void {
    this.#liveSettings = settings;
    this.#live?.update(settings);
    this.#live?.setGainDb(gainDb);
    if (adaptive !== undefined) {
      this.#liveAdaptive = adaptive;
      this.#live?.setAdaptive(adaptive);
    }
  }

  stop(): void {
    const r = this.#running;
    if (!r) return;
    this.#running = null;
    for (const s of r.sources) {
      s.onended = null;
      try {
        s.stop();
      } catch {
        // Already ended.
      }
      s.disconnect();
    }
  }

  /** One 100 ms reading of what plays (before the volume), 0..1 peak and RMS; null when silent/stopped. */
  readLevel(): { peak: number; rms: number } | null {
    if (!this.#ctx || !this.#running) return null;
    this.#analyser.getFloatTimeDomainData(this.#samples);
    const windowFrames = Math.round(this.#ctx.sampleRate / 10);
    let reading = { peak: 0, rms: 0 };
    const meter = new LevelMeter(this.#ctx.sampleRate, (r) => (reading = { peak: r.peak, rms: r.rms }), 100);
    const tail = this.#samples.subarray(this.#samples.length - meter.windowFrames);
    meter.push([tail], 0, Math.min(windowFrames, tail.length));
    return reading;
  }

  dispose(): void {
    this.stop();
    this.#live?.dispose();
    void this.#ctx?.close();
    this.#ctx = null;
  }

  async #chain(ctx: AudioContext, settings: MasteringSettings): Promise<MasteringChain> {
    if (!this.#live) {
      this.#live = await buildMasteringChain(ctx, this.#liveSettings ?? settings);
      this.#live.output.connect(this.#gainA);
    }
    return this.#live;
  }

  #applyListen(ctx: AudioContext): void {
    const a = this.#listen === 'original' ? this.#matched.original : 0;
    const b = this.#listen === 'master' ? this.#matched.master : 0;
    this.#setGains(ctx, a, b);
  }

  #setGains(ctx: AudioContext, a: number, b: number): void {
    const t = ctx.currentTime;
    this.#gainA.gain.cancelScheduledValues(t);
    this.#gainB.gain.cancelScheduledValues(t);
    this.#gainA.gain.setTargetAtTime(a, t, RAMP);
    this.#gainB.gain.setTargetAtTime(b, t, RAMP);
  }

  #start(
    ctx: AudioContext,
    kind: PlayKind,
    sources: AudioBufferSourceNode[],
    duration: number,
    offset: number,
    at = ctx.currentTime + 0.03,
  ): void {
    const running: Running = { kind, sources, startedAt: at, offset, duration };
    sources[0]!.onended = () => {
      if (this.#running !== running) return;
      this.stop();
      this.onEnded?.();
    };
    for (const s of sources) s.start(at, offset);
    this.#running = running;
  }
}
