import { useAuth } from '../../app/auth-context';
import { LoggedOutBanner } from '../../components/logged-out-banner';
import { usePageTitle } from '../../lib/use-page-title';

/** Route shell of mastering; the mastering engineers replace the body. Kept lazy so / loads no audio code. */
export function MasteringPage() {
  usePageTitle('Mastering');
  const { user } = useAuth();
  return (
    <div className="mx-auto max-w-6xl px-4 py-10" data-state="ready">
      {user ? null : (
        <LoggedOutBanner
          title="Log in to try our mastering for free"
          text="Experience professional audio mastering with our demo tracks"
        />
      )}
      <div
        inert={!user}
        className={user ? undefined : 'pointer-events-none opacity-50 grayscale select-none'}
      >
        <h1 className="text-3xl font-bold text-zinc-50">Mastering</h1>
        <p className="mt-2 text-zinc-300">Upload a track and master it with a preset or manual controls.</p>
      </div>
    </div>
  );
}
