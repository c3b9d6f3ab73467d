import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

type Tone = 'violet' | 'green' | 'zinc' | 'amber' | 'red';

const tones: Record<Tone, string> = {
  violet: 'border-violet-500/40 bg-violet-500/15 text-violet-200',
  green: 'border-emerald-500/40 bg-emerald-500/15 text-emerald-200',
  zinc: 'border-zinc-600 bg-zinc-800 text-zinc-200',
  amber: 'border-amber-500/40 bg-amber-500/15 text-amber-200',
  red: 'border-red-500/40 bg-red-500/15 text-red-200',
};

export function Badge({
  tone = 'zinc',
  className,
  ...props
}: HTMLAttributes<HTMLSpanElement> & { tone?: Tone }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium',
        tones[tone],
        className,
      )}
      {...props}
    />
  );
}
