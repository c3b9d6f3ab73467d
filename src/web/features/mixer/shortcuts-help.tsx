import { memo } from 'react';
import { SHORTCUTS } from './use-shortcuts';

/** A small disclosure listing the keyboard shortcuts (fixed content: memoised, its parent re-renders often). */
export const ShortcutsHelp = memo(function ShortcutsHelp() {
  return (
    <details className="relative text-sm">
      <summary className="cursor-pointer list-none rounded-md border border-zinc-700 px-3 py-1.5 text-zinc-200 hover:bg-zinc-800">
        Keyboard shortcuts
      </summary>
      <div className="absolute right-0 z-20 mt-2 w-72 rounded-lg border border-zinc-700 bg-zinc-900 p-3 shadow-xl">
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
          {SHORTCUTS.map((s) => (
            <div key={s.keys} className="contents">
              <dt>
                <kbd className="rounded bg-zinc-800 px-1.5 py-0.5 font-mono text-xs text-zinc-100">
                  {s.keys}
                </kbd>
              </dt>
              <dd className="text-zinc-300">{s.action}</dd>
            </div>
          ))}
        </dl>
      </div>
    </details>
  );
});
