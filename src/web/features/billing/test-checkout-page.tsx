import { useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../components/ui/card';
import { usePageTitle } from '../../lib/use-page-title';
import { generatePassword, TEST_CARDS, TEST_USER } from './test-user';

export function TestCheckoutPage() {
  usePageTitle('Test Checkout');
  // Local state only: regenerated on every visit, never stored or sent.
  const [password] = useState(() => generatePassword());
  return (
    <div className="mx-auto grid max-w-4xl gap-6 px-4 py-12" data-state="ready">
      <div>
        <h1 className="text-3xl font-bold text-zinc-50">Test Checkout</h1>
        <p className="mt-2 text-zinc-300">
          Try the subscription flow end to end with test data. No real money moves with these cards.
        </p>
      </div>
      <Card>
        <CardTitle>Local test user</CardTitle>
        <CardDescription className="mt-1">
          Display only: register these details yourself if you want to use them.
        </CardDescription>
        <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-zinc-400">Email</dt>
            <dd className="font-mono text-zinc-50">{TEST_USER.email}</dd>
          </div>
          <div>
            <dt className="text-zinc-400">Username</dt>
            <dd className="font-mono text-zinc-50">{TEST_USER.username}</dd>
          </div>
          <div>
            <dt className="text-zinc-400">Password</dt>
            <dd className="font-mono text-zinc-50" data-testid="test-password">
              {password}
            </dd>
          </div>
          <div>
            <dt className="text-zinc-400">Subscription</dt>
            <dd className="text-zinc-50">{TEST_USER.subscription}</dd>
          </div>
        </dl>
      </Card>
      <Card>
        <CardTitle>Test cards</CardTitle>
        <CardDescription className="mt-1">
          Use any future expiry date, any 3-digit CVC and any postal code.
        </CardDescription>
        <ul className="mt-4 grid gap-3">
          {TEST_CARDS.map((card) => (
            <li
              key={card.number}
              className="flex flex-col gap-1 rounded-lg border border-zinc-800 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <div>
                <p className="font-medium text-zinc-50">{card.label}</p>
                <p className="text-sm text-zinc-400">{card.result}</p>
              </div>
              <p className="font-mono text-lg tracking-wider text-zinc-50">{card.number}</p>
            </li>
          ))}
        </ul>
      </Card>
      <nav aria-label="Test checkout" className="flex flex-wrap gap-3">
        <Link to="/auth" className={buttonClasses('primary')}>
          Log in or register
        </Link>
        <Link to="/pricing" className={buttonClasses('secondary')}>
          View pricing
        </Link>
        <Link to="/" className={buttonClasses('outline')}>
          Back to home
        </Link>
      </nav>
    </div>
  );
}
