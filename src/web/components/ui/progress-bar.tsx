import { cn } from '../../lib/cn';

/**
 * A thin progress bar in the app's colours, 0..100. The fill moves by a transform, which the compositor
 * animates on its own: a width transition lays out and paints the page on every frame, and during a render
 * that main-thread work takes CPU from the workers doing the job (on two cores it slowed mastering ~1.5x).
 */
export function ProgressBar({
  percent,
  label,
  className = 'h-2 w-full rounded',
}: {
  percent: number;
  label: string;
  /** The track's size and shape. */
  className?: string;
}) {
  const value = Math.min(100, Math.max(0, Math.round(percent)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className={cn('overflow-hidden bg-zinc-800', className)}
    >
      <div
        className="h-full w-full origin-left bg-violet-500 transition-transform"
        style={{ transform: `scaleX(${value / 100})` }}
      />
    </div>
  );
}
