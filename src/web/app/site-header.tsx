import { lazy, Suspense } from 'react';
import { Link, useNavigate } from 'react-router';
import { Logo } from '../components/logo';
import { buttonClasses } from '../components/ui/button';
import { cn } from '../lib/cn';
import { initials } from '../lib/format';
import { useAuth } from './auth-context';
import { clearBypassFlag, useDevBypass } from './dev-bypass';
import { SiteNav } from './site-nav';

// The account menu (Radix menu + positioning) loads only once someone is signed in: visitors never pay for it.
const UserMenu = lazy(() => import('./user-menu').then((m) => ({ default: m.UserMenu })));

/**
 * On a phone the badge takes its own line under the logo and the account (it made the header 8 px wider than
 * 375 px and wrapped to four lines); from sm up it sits left of the account, where the free space starts.
 */
function DevModeBadge() {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      onClick={() => {
        clearBypassFlag();
        navigate('/auth');
      }}
      className="order-last w-full rounded-full bg-red-700 px-3 py-1 text-xs font-semibold text-white sm:order-none sm:ml-auto sm:w-auto hover:bg-red-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-300"
    >
      Developer Mode (Click to exit)
    </button>
  );
}

export function SiteHeader() {
  const { user, isLoading } = useAuth();
  const bypass = useDevBypass();
  return (
    <header className="sticky top-0 z-40 border-b border-zinc-800 bg-zinc-950/90 backdrop-blur">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <Logo />
        <SiteNav className="hidden lg:block" />
        {/* min-h-10: the avatar's height, so the header does not grow 8 px when the user loads or logs in. */}
        {bypass.active ? <DevModeBadge /> : null}
        <div className={cn('ml-auto flex min-h-10 items-center gap-3', bypass.active && 'sm:ml-0')}>
          {user ? (
            <Suspense
              fallback={
                <span className="flex size-9 items-center justify-center rounded-full bg-violet-600 text-sm font-bold text-white">
                  {initials(user.username)}
                </span>
              }
            >
              <UserMenu user={user} />
            </Suspense>
          ) : isLoading ? null : (
            <Link to="/auth" className={buttonClasses('primary', 'sm')}>
              Log In
            </Link>
          )}
        </div>
      </div>
      {/* Small screens: the same links on their own row, so nothing hides behind a menu; it scrolls only on
          screens narrower than a phone's 375 px. */}
      <SiteNav row className="overflow-x-auto border-t border-zinc-800 px-1 py-1 sm:px-4 lg:hidden" />
    </header>
  );
}
