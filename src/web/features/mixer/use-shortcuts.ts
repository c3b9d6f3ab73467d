import { useEffect } from 'react';
import type { MixerController } from './mixer-controller';

/** What the help popover lists; the handler below is the one source of truth for the keys. */
export const SHORTCUTS: readonly { keys: string; action: string }[] = [
  { keys: 'Space', action: 'Play / pause' },
  { keys: 'S', action: 'Cut at playhead' },
  { keys: 'Delete / Backspace', action: 'Delete selected clip' },
  { keys: 'Escape', action: 'Clear selection' },
  { keys: '← / →', action: 'Nudge selected clip by one grid step' },
  { keys: 'Ctrl/Cmd + Z', action: 'Undo' },
  { keys: 'Shift + Ctrl/Cmd + Z', action: 'Redo' },
];

/** Typing in a field or working a slider keeps its own keys. */
const ownsKeys = (target: EventTarget | null): boolean => {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.getAttribute('role') === 'slider') return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
};

/** The sequencer's keyboard shortcuts, active while the mixer is usable and no dialog is open. */
export const useShortcuts = (controller: MixerController, enabled: boolean): void => {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || ownsKeys(e.target) || document.querySelector('[role="dialog"]')) return;
      const { engine } = controller;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      let handled = true;
      if (mod && key === 'z') {
        if (e.shiftKey) engine.redo();
        else engine.undo();
      } else if (mod || e.altKey) {
        handled = false;
      } else if (e.key === ' ') {
        void controller.togglePlay();
      } else if (key === 's') {
        engine.cutAtPlayhead();
      } else if (e.key === 'Delete' || e.key === 'Backspace') {
        engine.deleteSelected();
      } else if (e.key === 'Escape') {
        engine.clearSelection();
      } else if (
        (e.key === 'ArrowLeft' || e.key === 'ArrowRight') &&
        engine.getState().history.present.selectedId
      ) {
        engine.nudgeSelected(e.key === 'ArrowRight' ? 1 : -1);
      } else {
        handled = false;
      }
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [controller, enabled]);
};
