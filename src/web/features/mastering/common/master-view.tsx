/**
 * One master as the result panels show it (why, how it will play, codec preview): the single-track page
 * provides its current master, the album provides each track's (issue 31: "the why panel per track, platform
 * and codec preview"). The panels read only this, so one component serves both and the actions (play as a
 * platform or codec, encode a codec preview) go to whichever player and renders own that master.
 */
import { createContext, useContext } from 'react';
import type { PreviewCodec } from '../engine/engine-api';
import type { Analysis, MasterResult } from '../mastering-state';
import type { PlayAs } from '../player/play-as';

/** What of a master the panels read: its render, its measurement once made, its rendered versions. */
export type ViewedMaster = Pick<
  MasterResult,
  'buffer' | 'settings' | 'targetLufs' | 'report' | 'analysis' | 'variants'
>;

export interface MasterView {
  master: ViewedMaster;
  /** The meter's reading of what went in (null while measuring). */
  original: Analysis | null;
  /** What this master plays as now; null when it is not playing. */
  playing: PlayAs | null;
  /** Plays this master as `choice` ({ kind: 'master' }: back to the master itself). */
  playAs(choice: PlayAs): void;
  /** Makes a codec preview of this master without playing it. */
  encode(codec: PreviewCodec): void;
}

export const MasterViewContext = createContext<MasterView | null>(null);

/** The master the surrounding page or album track shows; null when there is none yet. */
export const useMasterView = (): MasterView | null => useContext(MasterViewContext);
