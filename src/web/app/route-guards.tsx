import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { LoadingScreen } from '../components/ui/spinner';
import { useAuth } from './auth-context';
import { useDevBypass } from './dev-bypass';

/**
 * Spec 2: a protected page shows only to a signed-in user or while the developer bypass is set; while the
 * user loads it shows 'Loading...', otherwise it redirects to /auth (or home, after an account deletion).
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { user, isLoading, signedOutTarget } = useAuth();
  const bypass = useDevBypass();
  if (isLoading || bypass.configLoading) return <LoadingScreen />;
  if (!user && !bypass.active) return <Navigate to={signedOutTarget} replace />;
  return children;
}

/** Buy crowns also needs a subscription: signed-in users without one go to /pricing (spec 4). */
export function SubscriberRoute({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  return (
    <ProtectedRoute>
      {user && !user.hasSubscription ? <Navigate to="/pricing" replace /> : children}
    </ProtectedRoute>
  );
}

/** /auth: signed-in users are sent to / (spec 2). */
export function GuestOnlyRoute({ children }: { children: ReactNode }) {
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingScreen />;
  if (user) return <Navigate to="/" replace />;
  return children;
}

/** Layout-route forms of the guards, so the router can wrap lazy pages without wrapper factories. */
export const GuestOnlyLayout = () => (
  <GuestOnlyRoute>
    <Outlet />
  </GuestOnlyRoute>
);
export const ProtectedLayout = () => (
  <ProtectedRoute>
    <Outlet />
  </ProtectedRoute>
);
export const SubscriberLayout = () => (
  <SubscriberRoute>
    <Outlet />
  </SubscriberRoute>
);
