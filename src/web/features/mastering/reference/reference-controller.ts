/** Reference mastering (manual mode, Unlimited): the track whose tone and loudness the master matches. */
import type { ControlsController } from '../controls/controls-controller';
import { masterClient } from '../engine/master-job';
import { canUseManual, isAllowedAudio } from '../mastering-rules';
import { NOTICES } from '../mastering-texts';
import type { PanelContext } from '../panel-context';
import { decodeRequest, fileRequest } from '../source/load-requests';

export class ReferenceController {
  #ctx: PanelContext;
  #controls: ControlsController;

  constructor(ctx: PanelContext, controls: ControlsController) {
    this.#ctx = ctx;
    this.#controls = controls;
  }

  /** Same upload rules as the source; the live chain follows the new target and tone once it is measured. */
  async loadReference(file: File): Promise<void> {
    const { deps } = this.#ctx;
    if (!canUseManual(deps.user())) return deps.notify(NOTICES.unlimitedRequired);
    if (!isAllowedAudio(file)) return deps.notify(NOTICES.invalidFile);
    const request = fileRequest(file);
    this.#ctx.set({ reference: { name: file.name, track: null } });
    try {
      const { buffer } = await decodeRequest(request, new AbortController().signal);
      const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c));
      const track = await masterClient().analyse(channels, buffer.sampleRate);
      if (this.#ctx.state().reference?.name !== file.name) return;
      this.#ctx.set({ reference: { name: file.name, track }, mode: 'manual' });
      this.#controls.syncLive();
    } catch (error) {
      this.#ctx.set({ reference: null });
      deps.notify(request.failure(error instanceof Error ? error.message : undefined));
    }
  }

  clearReference(): void {
    this.#ctx.set({ reference: null });
    this.#controls.syncLive();
  }
}
