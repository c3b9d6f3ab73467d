import { Link } from 'react-router';
import { type AdminStats, conversionRatePercent } from '../../../shared/api/admin';
import { Badge } from '../../components/ui/badge';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { formatDate } from '../../lib/format';

function Stat({ label, value, caption }: { label: string; value: string | number; caption?: string }) {
  return (
    <Card className="p-5">
      <p className="text-sm text-zinc-400">{label}</p>
      <p className="mt-2 text-3xl font-bold text-zinc-50">{value}</p>
      {caption ? <p className="mt-1 text-xs text-zinc-400">{caption}</p> : null}
    </Card>
  );
}

export function StatsView({ stats }: { stats: AdminStats }) {
  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12" data-state="ready">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-zinc-50">Admin Dashboard</h1>
        <Link to="/" className={buttonClasses('outline')}>
          Back to App
        </Link>
      </div>

      <section aria-label="Users" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Total Users" value={stats.totalUsers} />
        <Stat label="New Today" value={stats.newUsersToday} />
        <Stat label="Subscribers" value={stats.subscribedUsers} />
        <Stat label="Trial Users" value={stats.freeUsers} />
      </section>

      <section aria-label="Growth" className="grid gap-4 sm:grid-cols-3">
        <Stat label="This Week" value={stats.newUsersThisWeek} caption="new registrations" />
        <Stat label="This Month" value={stats.newUsersThisMonth} caption="new registrations" />
        <Stat label="Conversion Rate" value={`${conversionRatePercent(stats)}%`} caption="trial to paid" />
      </section>

      <Card>
        <h2 className="text-lg font-semibold text-zinc-50">Recent Registrations</h2>
        {stats.recentRegistrations.length === 0 ? (
          <p className="mt-3 text-sm text-zinc-300">No registrations yet.</p>
        ) : (
          <ul className="mt-3 divide-y divide-zinc-800">
            {stats.recentRegistrations.map((r) => (
              <li
                key={r.id}
                className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0">
                  <p className="font-medium text-zinc-50">{r.username}</p>
                  <p className="truncate text-sm text-zinc-400">{r.email}</p>
                </div>
                <div className="flex items-center gap-3">
                  {r.hasSubscription ? (
                    <Badge tone="green">Subscriber</Badge>
                  ) : (
                    <Badge tone="zinc">Free</Badge>
                  )}
                  <span className="text-sm text-zinc-400">{formatDate(r.createdAt)}</span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
