import { Outlet, ScrollRestoration } from 'react-router';
import { Toaster } from '../components/ui/toaster';
import { BypassFromQuery } from './bypass-from-query';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** The shell of every screen: header with navigation, the page, the footer and the toast area. */
export function RootLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-zinc-950 text-zinc-100">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-violet-600 focus:px-3 focus:py-2 focus:text-white"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
      <Toaster />
      <BypassFromQuery />
      <ScrollRestoration />
    </div>
  );
}
