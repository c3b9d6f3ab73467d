/**
 * The genre panel's action (issue 28): choosing the genre whose target the master aims at. A master made
 * before keeps the genre it was made with (its report says which) until the track is mastered again; in
 * manual mode the live chain follows at once.
 */
import { type Genre, isGenre } from '../../../../shared/genres';
import type { ControlsController } from '../controls/controls-controller';
import type { PanelContext } from '../panel-context';

export class GenreController {
  #ctx: PanelContext;
  #controls: ControlsController;

  constructor(ctx: PanelContext, controls: ControlsController) {
    this.#ctx = ctx;
    this.#controls = controls;
  }

  /** A genre from the field's value; anything else (the "suggested" entry) goes back to the default. */
  setGenre(value: string): void {
    const genre: Genre | null = isGenre(value) ? value : null;
    this.#ctx.set({ genre });
    this.#controls.syncLive();
  }
}
