/**
 * The controls panel's actions (spec 4): preset, mode, the manual sliders, the loudness target, and the live
 * chain that follows them in manual mode. It also answers what a render would use now (`renderChoice`).
 */
import type { ToneChoice } from '../engine/engine-api';
import { chosenGenre } from '../genre/genre-choice';
import {
  DEFAULT_CUSTOM_SETTINGS,
  type MasteringMode,
  type MasteringSettings,
  type PresetId,
} from '../mastering-constants';
import { canUseManual, resolveSetup, type TargetChoice } from '../mastering-rules';
import { shownSettings } from '../mastering-state';
import { NOTICES } from '../mastering-texts';
import type { PanelContext } from '../panel-context';
import { LiveGainPlanner } from './live-gain';

export class ControlsController {
  #ctx: PanelContext;
  #live = new LiveGainPlanner();

  constructor(ctx: PanelContext) {
    this.#ctx = ctx;
  }

  /** Spec 4: changing the preset resets the mode to automatic. */
  setPreset(preset: PresetId): void {
    this.#ctx.set({ preset, mode: 'automatic' });
    this.syncLive();
  }

  setMode(mode: MasteringMode): void {
    if (mode === 'manual' && !canUseManual(this.#ctx.deps.user())) {
      this.#ctx.deps.notify(NOTICES.unlimitedRequired);
      return;
    }
    this.#ctx.set({ mode });
    this.syncLive();
  }

  /** A slider move in automatic mode takes an Unlimited user into manual mode from the preset's values. */
  setSlider(key: keyof MasteringSettings, value: number): void {
    if (!canUseManual(this.#ctx.deps.user())) {
      this.#ctx.deps.notify(NOTICES.unlimitedRequired);
      return;
    }
    const state = this.#ctx.state();
    const base = state.mode === 'manual' ? state.custom : shownSettings(state);
    this.#ctx.set({ mode: 'manual', custom: { ...base, [key]: value } });
    this.syncLive();
  }

  resetCustom(): void {
    this.#ctx.set({ custom: { ...DEFAULT_CUSTOM_SETTINGS } });
    this.syncLive();
  }

  setTarget(target: TargetChoice): void {
    this.#ctx.set({ target });
    this.syncLive();
  }

  /** The gain that brings the original near the target before the limiter (the live preview's loudness). */
  liveGainDb(): number {
    const state = this.#ctx.state();
    const lufs = state.source?.analysis?.loudness.integratedLufs;
    return this.#live.gainDb(state.custom, this.targetLufs(), lufs);
  }

  /** The live gain for a render's own settings and target (the live chain while that render runs). */
  liveGainFor(settings: MasteringSettings, targetLufs: number, originalLufs: number | undefined): number {
    return this.#live.gainDb(settings, targetLufs, originalLufs);
  }

  /** A new file: the planned gain and any plan in flight go. */
  resetLive(): void {
    this.#live.reset();
  }

  /** The adaptive chain's choice: the genre's target at the preset's amount, the manual Tone match when moved. */
  toneChoice(): ToneChoice {
    const { mode, preset, custom, reference } = this.#ctx.state();
    const track = mode === 'manual' ? (reference?.track ?? undefined) : undefined;
    return {
      preset,
      toneMatch: mode === 'manual' ? custom.toneMatch : undefined,
      reference: track,
      genre: chosenGenre(this.#ctx.state()),
    };
  }

  /** The loudness target: the reference's integrated loudness when one is matched (decision 114). */
  targetLufs(): number {
    const state = this.#ctx.state();
    const reference = state.mode === 'manual' ? state.reference?.track : null;
    if (reference && Number.isFinite(reference.integratedLufs)) return reference.integratedLufs;
    return resolveSetup({ ...state, settings: state.custom }).targetLufs;
  }

  /** The chain a render would use now: the chosen preset or manual settings, target and tone. */
  renderChoice() {
    const state = this.#ctx.state();
    const { settings } = resolveSetup({ ...state, settings: state.custom });
    return { settings, targetLufs: this.targetLufs(), tone: this.toneChoice() };
  }

  /** The live chain follows the manual settings: at once at the estimated gain, then at the planned one. */
  syncLive(): void {
    const { source, mode, custom } = this.#ctx.state();
    if (mode !== 'manual' || !source) return;
    this.#ctx.player.updateLive(custom, this.liveGainDb());
    const targetLufs = this.targetLufs();
    // The whole track's analysis, so the live EQ is the download's (the plan itself runs on an excerpt).
    const tone = source.track ? { choice: this.toneChoice(), analysis: source.track } : null;
    this.#live.schedule(source.buffer, custom, targetLufs, tone, (gainDb, adaptive) => {
      const now = this.#ctx.state();
      if (now.source === source && now.mode === 'manual')
        this.#ctx.player.updateLive(now.custom, gainDb, adaptive);
    });
  }
}
