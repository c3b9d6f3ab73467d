/** The codec panel's action: a codec preview of the current master made without playing it. */
import type { PreviewCodec } from '../engine/engine-api';
import { currentResult, type MasterResult } from '../mastering-state';
import type { PanelContext } from '../panel-context';
import type { VariantRenders } from '../player/variant-renders';

export class CodecController {
  #ctx: PanelContext;
  #variants: VariantRenders<MasterResult>;

  constructor(ctx: PanelContext, variants: VariantRenders<MasterResult>) {
    this.#ctx = ctx;
    this.#variants = variants;
  }

  /** Starts (or shows) a codec preview without playing it. */
  previewCodec(codec: PreviewCodec): void {
    const result = currentResult(this.#ctx.state());
    const measured = result?.analysis?.loudness;
    if (!result || !measured) return;
    void this.#variants.make(codec, result, measured);
  }
}
