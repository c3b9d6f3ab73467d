import { useEffect, useState, useSyncExternalStore } from 'react';
import type { MixerState } from '../../../audio';
import type { FlowState } from './flow-state';
import { MixerController } from './mixer-controller';

/**
 * Issue 30: the controller (audio context, engine, workers) outlives a visit to the screen, so Mixer →
 * Settings → Mixer finds the work as it was. It is replaced for another user, and when the page is opened
 * on a particular mix or session from the library (`opening`, e.g. 'session=12') other than the kept one's.
 */
let kept: { owner: number | null; opening: string | null; controller: MixerController } | null = null;

export const useMixerController = (owner: number | null, opening: string | null): MixerController | null => {
  const [controller, setController] = useState<MixerController | null>(null);
  useEffect(() => {
    const stale = kept && (kept.owner !== owner || (opening !== null && kept.opening !== opening));
    if (stale) {
      kept?.controller.dispose();
      kept = null;
    }
    kept ??= { owner, opening, controller: new MixerController() };
    const c = kept.controller;
    setController(c);
    // Leaving the screen stops the sound; the work stays for the next visit.
    return () => {
      c.stopPlayers();
      c.engine.pause();
    };
  }, [owner, opening]);
  return controller;
};

/** The engine's snapshot (timeline, history, transport): re-renders on edits, never per frame. */
export const useEngineState = (c: MixerController): MixerState =>
  useSyncExternalStore(c.engine.subscribe, c.engine.getState);

export const useFlow = (c: MixerController): FlowState =>
  useSyncExternalStore(c.store.subscribe, c.store.getState);

/**
 * One part of the flow state; the component re-renders only when that part changes (progress reports of a
 * render change the flow many times a second, the sequencer need not redraw for them).
 */
export const useFlowPart = <T>(c: MixerController, pick: (s: FlowState) => T): T =>
  useSyncExternalStore(c.store.subscribe, () => pick(c.store.getState()));
