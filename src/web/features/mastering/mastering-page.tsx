import { useAuth } from '../../app/auth-context';
import { LoggedOutBanner } from '../../components/logged-out-banner';
import { usePageTitle } from '../../lib/use-page-title';
import { DemoTracks } from './demos/demo-tracks';
import { MasteringErrorBoundary } from './mastering-error-boundary';
import { MasteringScreen } from './mastering-screen';
import { TEXT } from './mastering-texts';

/** The mastering route (spec 2): greyed out and not clickable when signed out, with our demo tracks. */
export function MasteringPage() {
  usePageTitle('Mastering');
  const { user, isLoading } = useAuth();
  const signedIn = user !== null;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10" data-state={isLoading ? 'loading' : 'ready'}>
      {signedIn || isLoading ? null : (
        <>
          <LoggedOutBanner title={TEXT.bannerTitle} text={TEXT.bannerText} />
          <DemoTracks />
        </>
      )}
      <div
        inert={!signedIn}
        data-testid="mastering"
        className={signedIn ? 'space-y-6' : 'pointer-events-none space-y-6 opacity-50 grayscale select-none'}
      >
        <header>
          <h1 className="text-3xl font-bold text-zinc-50">Mastering</h1>
          <p className="mt-2 text-zinc-300">
            Master with a preset or, on Unlimited, by hand; compare at equal loudness; download WAV or MP3.
          </p>
        </header>
        <MasteringErrorBoundary>
          <MasteringScreen />
        </MasteringErrorBoundary>
      </div>
    </div>
  );
}
