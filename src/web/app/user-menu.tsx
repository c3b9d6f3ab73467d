import { useNavigate } from 'react-router';
import type { PublicUser } from '../../shared/api/user';
import { balanceLines, SPEND_ORDER_NOTE, showsCredits } from '../../shared/balances';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../components/ui/dropdown-menu';
import { initials, planLabel } from '../lib/format';
import { useAuth } from './auth-context';

/** What the user holds, in the mastering screen's words: one list for both (src/shared/balances.ts). */
const balanceLine = (user: PublicUser): string =>
  balanceLines(user.hasSubscription ? user.subscriptionType : null, user).join(' · ');

export function UserMenu({ user }: { user: PublicUser }) {
  const { logoutMutation } = useAuth();
  const navigate = useNavigate();
  const go = (to: string) => () => navigate(to);

  return (
    // Non-modal: a modal menu hides the page with aria-hidden while its controls stay focusable (axe).
    <DropdownMenu modal={false}>
      {/* No aria-label: the name is the visible text plus a hidden purpose, so it contains what is seen
          (axe label-content-name-mismatch, issue 30). */}
      <DropdownMenuTrigger
        data-testid="account-menu"
        className="flex items-center gap-3 rounded-full p-0.5 pr-1 focus-visible:outline-2 focus-visible:outline-violet-400 md:rounded-lg md:pr-3"
      >
        <span className="flex size-9 items-center justify-center rounded-full bg-violet-600 text-sm font-bold text-white">
          {initials(user.username)}
        </span>
        <span className="hidden text-left md:block">
          <span className="block text-sm font-medium text-zinc-50">{user.username}</span>
          <span className="block max-w-48 truncate text-xs text-zinc-400">{user.email}</span>
        </span>
        <span className="sr-only"> Account menu for {user.username}</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>
          <span className="block font-medium text-zinc-50">{user.username}</span>
          <span className="block truncate text-xs text-zinc-400">{user.email}</span>
          <span className="mt-1 block text-xs text-violet-300">
            {planLabel(user.subscriptionType)} · {balanceLine(user)}
          </span>
          {user.hasSubscription && showsCredits(user.subscriptionType, user) ? (
            <span className="mt-1 block text-xs text-zinc-400">{SPEND_ORDER_NOTE}</span>
          ) : null}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={go('/mixer')}>My Mixer</DropdownMenuItem>
        <DropdownMenuItem onSelect={go('/mastering')}>Mastering</DropdownMenuItem>
        <DropdownMenuItem onSelect={go('/library')}>Library</DropdownMenuItem>
        <DropdownMenuItem onSelect={go('/settings')}>Settings</DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={logoutMutation.isPending}
          onSelect={(event) => {
            // Keep the menu open so 'Logging out...' stays visible until the server answers.
            event.preventDefault();
            logoutMutation.mutate(undefined, { onSuccess: () => navigate('/auth') });
          }}
        >
          {logoutMutation.isPending ? 'Logging out...' : 'Log out'}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
