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
    <div className="mx-auto max-w-6xl px-4 py-4 lg:py-10" data-state={isLoading ? 'loading' : 'ready'}>
      {signedIn || isLoading ? null : (
        <>
          <LoggedOutBanner title={TEXT.bannerTitle} text={TEXT.bannerText} />
          <DemoTracks />
        </>
      )}
      <div
        inert={!signedIn}
        data-testid="mastering"
        className={
          signedIn
            ? 'space-y-4 lg:space-y-6'
            : 'pointer-events-none space-y-4 opacity-50 grayscale select-none lg:space-y-6'
        }
      >
        <header>
          <h1 className="text-2xl font-bold text-zinc-50 lg:text-3xl">Mastering</h1>
          {/* Hidden on a phone: with the Single track / Album switch (issue 31) the first screen must still
              reach Master Track (decision 242). */}
          <p className="mt-1 hidden text-sm text-zinc-300 sm:block lg:mt-2 lg:text-base">
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
