import { useEffect, useState } from 'react';
import { useRouteError } from 'react-router';
import { Button, buttonClasses } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { LoadingScreen } from '../components/ui/spinner';
import { isChunkLoadError, reloadOnceForChunkError } from '../lib/chunk-reload';
import { reportClientError } from '../lib/report-client-error';
import { usePageTitle } from '../lib/use-page-title';

/**
 * The route error boundary: a screen whose code failed to load (an old tab after a deploy) reloads once to
 * the same URL; any other error, or a chunk still missing after that reload, shows this page with a retry
 * instead of a blank screen.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  const [reloading, setReloading] = useState(chunk);
  useEffect(() => {
    reportClientError(chunk ? 'chunk-load' : 'render-error', error);
    if (chunk && !reloadOnceForChunkError()) setReloading(false);
  }, [chunk, error]);
  usePageTitle(reloading ? '' : 'Something went wrong');
  if (reloading) return <LoadingScreen />;
  return (
    <div className="mx-auto flex max-w-xl items-center px-4 py-20">
      <Card className="w-full text-center" role="alert" data-state="error">
        <h1 className="text-2xl font-bold text-zinc-50">
          {chunk ? 'This screen could not be loaded' : 'Something went wrong'}
        </h1>
        <p className="mt-2 text-zinc-300">
          {chunk
            ? 'Master Your Mix may have just been updated, or the connection dropped. Please try again.'
            : 'This screen stopped because of an unexpected error. Please try again.'}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Button onClick={() => window.location.reload()}>Try again</Button>
          {/* A plain link, not the router's: the router is in an error state, a full load starts afresh. */}
          <a href="/" className={buttonClasses('outline')}>
            Go to the home page
          </a>
        </div>
      </Card>
    </div>
  );
}
