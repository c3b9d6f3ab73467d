import { NavLink } from 'react-router';
import { cn } from '../lib/cn';
import { useAuth } from './auth-context';

export const NAV_ITEMS = [
  { to: '/', label: 'Home' },
  { to: '/mixer', label: 'Mixer' },
  { to: '/mastering', label: 'Mastering' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/help', label: 'Help' },
] as const;

/** Issue 30: the library of your work, shown to signed-in users after Mastering. */
const LIBRARY_ITEM = { to: '/library', label: 'Library' } as const;

/**
 * The top navigation; NavLink marks the current route with aria-current="page" and the active style.
 * `row` is the layout under lg: on a phone the links share the width, tighter, so all six (signed in) fit 375 px
 * with no link hidden past the edge of a scroller nobody knows is there; from sm up they sit left as on desktop.
 */
export function SiteNav({ className, row = false }: { className?: string; row?: boolean }) {
  const { user } = useAuth();
  const items = user ? [...NAV_ITEMS.slice(0, 3), LIBRARY_ITEM, ...NAV_ITEMS.slice(3)] : NAV_ITEMS;
  return (
    <nav aria-label="Main" className={className}>
      <ul className={cn('flex items-center', row ? 'justify-between sm:justify-start sm:gap-1' : 'gap-1')}>
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.to === '/'}
              className={({ isActive }) =>
                cn(
                  'block rounded-md py-2 font-medium whitespace-nowrap transition-colors',
                  row ? 'px-2 text-[13px] sm:px-3 sm:text-sm' : 'px-3 text-sm',
                  'focus-visible:outline-2 focus-visible:outline-violet-400',
                  isActive
                    ? 'bg-violet-600/20 text-violet-200'
                    : 'text-zinc-300 hover:bg-zinc-800 hover:text-zinc-50',
                )
              }
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
