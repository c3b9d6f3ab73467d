/**
 * How a panel's controller talks to the mastering store (decision 210). The store owns the one state
 * snapshot and the one player; a controller reads the snapshot, applies patches to it and raises toasts
 * through this context, never through React. A controller that needs another panel's action gets that
 * controller in its constructor (the store wires them), so the dependencies between panels stay visible.
 */
import type { PublicUser } from '../../../shared/api/user';
import type { MasteringState } from './mastering-state';
import type { Notice } from './mastering-texts';
import type { MasteringPlayer } from './player/mastering-player';

export interface StoreDeps {
  notify: (notice: Notice) => void;
  /** Asks the server for the user again: the plan that decides manual mode is the server's. */
  refreshUser: () => Promise<PublicUser | null>;
  user: () => PublicUser | null;
  /** Whether mastered playback is muted periodically for this user right now (spec 4). */
  previewMode: () => boolean;
}

export interface PanelContext {
  readonly deps: StoreDeps;
  /** The screen's one player: the original, the master, the live chain and the meters. */
  readonly player: MasteringPlayer;
  /** The snapshot now (it changes after every `set`: read it again after an await). */
  state(): MasteringState;
  /** Replaces the snapshot by one with `patch` applied and tells the subscribers. */
  set(patch: Partial<MasteringState>): void;
}
