import { useEffect, useState, useSyncExternalStore } from 'react';
import type { MixerState } from '../../../audio';
import type { FlowState } from './flow-state';
import { MixerController } from './mixer-controller';

/** One controller (audio context, engine, workers) per visit to the screen, closed when it unmounts. */
export const useMixerController = (): MixerController | null => {
  const [controller, setController] = useState<MixerController | null>(null);
  useEffect(() => {
    const c = new MixerController();
    setController(c);
    return () => c.dispose();
  }, []);
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
