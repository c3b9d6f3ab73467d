import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { LoadingScreen } from '../components/ui/spinner';
import { LandingPage } from '../features/landing/landing-page';
import { NotFoundPage } from './not-found-page';
import { RootLayout } from './root-layout';
import { GuestOnlyRoute, ProtectedRoute, SubscriberRoute } from './route-guards';

type Guard = 'guest' | 'protected' | 'subscriber';

const guards: Record<Guard, ComponentType<{ children: React.ReactNode }>> = {
  guest: GuestOnlyRoute,
  protected: ProtectedRoute,
  subscriber: SubscriberRoute,
};

/**
 * Every screen but the landing page is its own lazy chunk: the landing route downloads no audio code and
 * no screen it does not show. The loaded module's named export becomes the route's component.
 */
const lazyPage =
  (load: () => Promise<Record<string, ComponentType>>, name: string, guard?: Guard): RouteObject['lazy'] =>
  async () => {
    const Page = (await load())[name];
    if (!Page) throw new Error(`Route module has no export ${name}`);
    if (!guard) return { Component: Page };
    const Guard = guards[guard];
    return {
      Component: () => (
        <Guard>
          <Page />
        </Guard>
      ),
    };
  };

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: LoadingScreen,
    children: [
      { index: true, Component: LandingPage },
      { path: 'mixer', lazy: lazyPage(() => import('../features/mixer/mixer-page'), 'MixerPage') },
      { path: 'mastering', lazy: lazyPage(() => import('../features/mastering/mastering-page'), 'MasteringPage') },
      { path: 'pricing', lazy: lazyPage(() => import('../features/pricing/pricing-page'), 'PricingPage') },
      { path: 'auth', lazy: lazyPage(() => import('../features/auth/auth-page'), 'AuthPage', 'guest') },
      {
        path: 'forgot-password',
        lazy: lazyPage(() => import('../features/auth/forgot-password-page'), 'ForgotPasswordPage'),
      },
      {
        path: 'reset-password',
        lazy: lazyPage(() => import('../features/auth/reset-password-page'), 'ResetPasswordPage'),
      },
      { path: 'admin', lazy: lazyPage(() => import('../features/admin/admin-page'), 'AdminPage') },
      { path: 'help', lazy: lazyPage(() => import('../features/help/help-page'), 'HelpPage') },
      {
        path: 'settings',
        lazy: lazyPage(() => import('../features/settings/settings-page'), 'SettingsPage', 'protected'),
      },
      {
        path: 'buy-crowns',
        lazy: lazyPage(() => import('../features/billing/buy-crowns-page'), 'BuyCrownsPage', 'subscriber'),
      },
      {
        path: 'checkout',
        lazy: lazyPage(() => import('../features/billing/checkout-page'), 'CheckoutPage', 'protected'),
      },
      {
        path: 'test-checkout',
        lazy: lazyPage(() => import('../features/billing/test-checkout-page'), 'TestCheckoutPage'),
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
