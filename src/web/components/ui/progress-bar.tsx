/** A thin progress bar in the app's colours (the mastering bar's look), 0..100. */
export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  const value = Math.min(100, Math.max(0, Math.round(percent)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className="h-2 w-full overflow-hidden rounded bg-zinc-800"
    >
      <div className="h-full bg-violet-500 transition-[width]" style={{ width: `${value}%` }} />
    </div>
  );
}
