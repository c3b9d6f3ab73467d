import { type ReactNode, useId, useState } from 'react';
import { cn } from '../../lib/cn';

/**
 * A panel's plain first line (issue 30, decisions 245 and 253): what it found and what it did, in words.
 * The e2e specs find it by its test id on every panel.
 */
export function PlainSentence({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p className={cn('mt-1 text-zinc-200', className)} data-testid="plain-sentence">
      {children}
    </p>
  );
}

/**
 * The numbers behind a panel's sentence, one click away on every screen (decision 253). A button with
 * aria-expanded, not a <details>: panels whose numbers sit inside rows next to their Play buttons hide
 * only those parts (`useShowNumbers`), and the button reads the same way on both.
 */
export function useShowNumbers(what = 'the numbers') {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = (
    <button
      type="button"
      aria-expanded={open}
      aria-controls={id}
      onClick={() => setOpen((o) => !o)}
      className="inline-flex min-h-8 items-center gap-1 justify-self-start rounded-md text-sm text-violet-300 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-violet-400"
      data-testid="show-numbers"
    >
      {open ? `Hide ${what}` : `Show ${what}`}
      <span aria-hidden="true" className={cn('text-xs transition-transform', open && 'rotate-180')}>
        ▾
      </span>
    </button>
  );
  return { open, id, button };
}

/** The usual case: the button, then the numbers under it (hidden, not unmounted: their ids stay readable). */
export function ShowNumbers({
  children,
  className,
  what,
}: {
  children: ReactNode;
  className?: string;
  what?: string;
}) {
  const { open, id, button } = useShowNumbers(what);
  return (
    <div className="grid gap-2">
      {button}
      <div id={id} hidden={!open} className={cn('grid gap-3', className)} data-testid="numbers">
        {children}
      </div>
    </div>
  );
}
