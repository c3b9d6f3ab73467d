import { Link } from 'react-router';

export function Logo() {
  return (
    <Link
      to="/"
      className="flex shrink-0 items-center gap-2 rounded-md font-semibold text-zinc-50 focus-visible:outline-2 focus-visible:outline-violet-400"
    >
      <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#7c3aed" />
        <path
          d="M6 20v-8M11 24V8M16 18v-4M21 22V10M26 19v-6"
          stroke="#fff"
          strokeWidth="2.5"
          strokeLinecap="round"
        />
      </svg>
      <span className="text-base tracking-tight">Master Your Mix</span>
    </Link>
  );
}
