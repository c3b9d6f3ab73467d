import type { ReactNode } from 'react';
import { useMediaQuery } from '../../../lib/use-media-query';

/** Below Tailwind's lg breakpoint the mastering page is one column (decision 242). */
export const ONE_COLUMN_QUERY = '(max-width: 1023px)';

/**
 * An analysis panel on a one-column (phone) screen: folded under its title below the controls, so the
 * source, the controls and "Master Track" come first; opened with a tap. On a wide screen, the panel as is.
 */
export function FoldOnPhone({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  const oneColumn = useMediaQuery(ONE_COLUMN_QUERY);
  if (!oneColumn) return <>{children}</>;
  return (
    <details
      className="group rounded-xl border border-zinc-800 bg-zinc-900/60 has-[>div:empty]:hidden"
      data-testid={`fold-${id}`}
    >
      <summary className="flex cursor-pointer items-center justify-between px-4 py-3 text-sm font-semibold text-zinc-100">
        {title}
        <span aria-hidden="true" className="text-zinc-400 group-open:rotate-180">
          ▾
        </span>
      </summary>
      {/* A panel with nothing to show yet renders nothing: then the fold is hidden too. */}
      <div className="p-1">{children}</div>
    </details>
  );
}
