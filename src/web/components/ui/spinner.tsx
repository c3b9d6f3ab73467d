import { cn } from '../../lib/cn';

export function Spinner({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={cn('size-6 animate-spin text-violet-400', className)}
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path
        d="M22 12a10 10 0 0 0-10-10"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** The protected-route and page loading state (spec 2: a spinner with 'Loading...'). */
export function LoadingScreen() {
  return (
    <div
      role="status"
      data-state="loading"
      className="flex min-h-[50vh] flex-col items-center justify-center gap-3"
    >
      <Spinner className="size-8" />
      <p className="text-sm text-zinc-300">Loading...</p>
    </div>
  );
}
