import { useAuth } from '../../app/auth-context';
import { LoggedOutBanner } from '../../components/logged-out-banner';
import { usePageTitle } from '../../lib/use-page-title';

/** Route shell of the mixer; the mixer engineers replace the body. Kept lazy so / loads no audio code. */
export function MixerPage() {
  usePageTitle('Mixer');
  const { user } = useAuth();
  return (
    <div className="mx-auto max-w-6xl px-4 py-10" data-state="ready">
      {user ? null : <LoggedOutBanner title="Log in to try our mixer for free" />}
      <div inert={!user} className={user ? undefined : 'pointer-events-none opacity-50 select-none'}>
        <h1 className="text-3xl font-bold text-zinc-50">Mixer</h1>
        <p className="mt-2 text-zinc-300">
          Blend your vocals with an instrumental, arrange clips and export the mix.
        </p>
      </div>
    </div>
  );
}
