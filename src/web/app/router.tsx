import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { LoadingScreen } from '../components/ui/spinner';
import { LandingPage } from '../features/landing/landing-page';
import { chunkLoaded } from '../lib/chunk-reload';
import { NotFoundPage } from './not-found-page';
import { RootLayout } from './root-layout';
import { RouteErrorPage } from './route-error-page';
import { GuestOnlyLayout, ProtectedLayout, SubscriberLayout } from './route-guards';

/**
 * Every screen but the landing page is its own lazy chunk: the landing route downloads no audio code and
 * no screen it does not show. The loaded module's named export becomes the route's component.
 */
const lazyPage =
  (load: () => Promise<Record<string, unknown>>, name: string): RouteObject['lazy'] =>
  async () => {
    const Page = (await load())[name] as ComponentType | undefined;
    chunkLoaded();
    if (!Page) throw new Error(`Route module has no export ${name}`);
    return { Component: Page };
  };

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: LoadingScreen,
    // Catches what the boundary below cannot: an error in the shell itself.
    ErrorBoundary: RouteErrorPage,
    children: [
      {
        // Every screen's errors land here, inside the shell, so the header still leads elsewhere.
        ErrorBoundary: RouteErrorPage,
        children: [
          { index: true, Component: LandingPage },
          { path: 'mixer', lazy: lazyPage(() => import('../features/mixer/mixer-page'), 'MixerPage') },
          {
            path: 'mastering',
            lazy: lazyPage(() => import('../features/mastering/mastering-page'), 'MasteringPage'),
          },
          {
            path: 'pricing',
            lazy: lazyPage(() => import('../features/pricing/pricing-page'), 'PricingPage'),
          },
          {
            path: 'forgot-password',
            lazy: lazyPage(() => import('../features/auth/forgot-password-page'), 'ForgotPasswordPage'),
          },
          {
            path: 'reset-password',
            lazy: lazyPage(() => import('../features/auth/reset-password-page'), 'ResetPasswordPage'),
          },
          // Open: signed out, the page asks to log in to the account the link was sent for (decision 093).
          {
            path: 'verify-email',
            lazy: lazyPage(() => import('../features/auth/verify-email-page'), 'VerifyEmailPage'),
          },
          // Listed as open: the screen itself turns non-admins away (spec 2).
          { path: 'admin', lazy: lazyPage(() => import('../features/admin/admin-page'), 'AdminPage') },
          { path: 'help', lazy: lazyPage(() => import('../features/help/help-page'), 'HelpPage') },
          {
            path: 'meter-conformance',
            lazy: lazyPage(
              () => import('../features/conformance/meter-conformance-page'),
              'MeterConformancePage',
            ),
          },
          {
            path: 'test-checkout',
            lazy: lazyPage(() => import('../features/billing/test-checkout-page'), 'TestCheckoutPage'),
          },
          {
            Component: GuestOnlyLayout,
            children: [
              { path: 'auth', lazy: lazyPage(() => import('../features/auth/auth-page'), 'AuthPage') },
            ],
          },
          {
            Component: ProtectedLayout,
            children: [
              {
                path: 'settings',
                lazy: lazyPage(() => import('../features/settings/settings-page'), 'SettingsPage'),
              },
              {
                path: 'library',
                lazy: lazyPage(() => import('../features/library/library-page'), 'LibraryPage'),
              },
              {
                path: 'checkout',
                lazy: lazyPage(() => import('../features/billing/checkout-page'), 'CheckoutPage'),
              },
            ],
          },
          {
            Component: SubscriberLayout,
            children: [
              {
                path: 'buy-crowns',
                lazy: lazyPage(() => import('../features/billing/buy-crowns-page'), 'BuyCrownsPage'),
              },
            ],
          },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
