import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import type { AdminStats } from '../../../shared/api/admin';
import { MESSAGES } from '../../../shared/messages';
import { useAuth } from '../../app/auth-context';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { LoadingScreen } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { userMessage } from '../../lib/api-client';
import { usePageTitle } from '../../lib/use-page-title';
import { StatsView } from './stats-view';

function AccessDenied() {
  return (
    <div className="mx-auto max-w-md px-4 py-16" data-state="ready">
      <Card className="text-center">
        <h1 className="text-2xl font-bold text-zinc-50">Access Denied</h1>
        <p className="mt-2 text-zinc-300">Please log in with an administrator account to view this page.</p>
        <Link to="/auth" className={buttonClasses('primary', 'md', 'mt-6')}>
          Log In
        </Link>
      </Card>
    </div>
  );
}

/** Non-admins are sent home with a notice (spec 2). */
function SendHome() {
  const navigate = useNavigate();
  useEffect(() => {
    toast({
      title: MESSAGES.adminRequired,
      description: 'You need administrator access to view the admin dashboard.',
      variant: 'destructive',
    });
    navigate('/', { replace: true });
  }, [navigate]);
  return null;
}

/** The server refuses the stats until an admin has two-factor authentication on. */
function TwoFactorNeeded() {
  return (
    <div className="mx-auto max-w-md px-4 py-16" data-state="ready">
      <Card className="text-center">
        <h1 className="text-2xl font-bold text-zinc-50">Two-factor authentication required</h1>
        <p className="mt-2 text-zinc-300">{MESSAGES.twoFactorRequiredForAdmin}</p>
        <Link to="/settings" className={buttonClasses('primary', 'md', 'mt-6')}>
          Go to Settings
        </Link>
      </Card>
    </div>
  );
}

function Dashboard() {
  // Requested only once the user is known to be an admin (this component renders for admins only).
  const stats = useQuery<AdminStats>({ queryKey: ['/api/admin/stats'] });
  if (stats.isLoading) return <LoadingScreen />;
  if (stats.isError || !stats.data) {
    return (
      <div className="mx-auto max-w-md px-4 py-16" data-state="error">
        <Card className="text-center">
          <h1 className="text-2xl font-bold text-zinc-50">Error loading admin dashboard</h1>
          <p className="mt-2 text-zinc-300">{userMessage(stats.error, 'Please try again later')}</p>
          <Link to="/" className={buttonClasses('outline', 'md', 'mt-6')}>
            Back to App
          </Link>
        </Card>
      </div>
    );
  }
  return <StatsView stats={stats.data} />;
}

export function AdminPage() {
  usePageTitle('Admin Dashboard');
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingScreen />;
  if (!user) return <AccessDenied />;
  if (!user.isAdmin) return <SendHome />;
  if (!user.twoFactorEnabled) return <TwoFactorNeeded />;
  return <Dashboard />;
}
