import { lazy, Suspense } from 'react';
import { Link, useNavigate } from 'react-router';
import { Logo } from '../components/logo';
import { buttonClasses } from '../components/ui/button';
import { initials } from '../lib/format';
import { useAuth } from './auth-context';
import { clearBypassFlag, useDevBypass } from './dev-bypass';
import { SiteNav } from './site-nav';

// The account menu (Radix menu + positioning) loads only once someone is signed in: visitors never pay for it.
const UserMenu = lazy(() => import('./user-menu').then((m) => ({ default: m.UserMenu })));

function DevModeBadge() {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      onClick={() => {
        clearBypassFlag();
        navigate('/auth');
      }}
      className="rounded-full bg-red-700 px-3 py-1 text-xs font-semibold text-white hover:bg-red-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-300"
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
      <div className="mx-auto flex max-w-7xl items-center gap-4 px-4 py-3">
        <Logo />
        <SiteNav className="hidden lg:block" />
        {/* min-h-10: the avatar's height, so the header does not grow 8 px when the user loads or logs in. */}
        <div className="ml-auto flex min-h-10 items-center gap-3">
          {bypass.active ? <DevModeBadge /> : null}
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
      <SiteNav row className="overflow-x-auto border-t border-zinc-800 px-1 py-1 lg:hidden" />
    </header>
  );
}
