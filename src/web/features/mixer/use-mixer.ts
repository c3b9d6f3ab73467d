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
