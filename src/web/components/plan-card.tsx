import type { ReactNode } from 'react';
import { formatCents, type Plan } from '../../shared/plans';
import { cn } from '../lib/cn';
import { FeatureIcon } from './feature-icon';
import { Badge } from './ui/badge';

/** One plan's price, description and features (shared by pricing and checkout). */
export function PlanCard({
  plan,
  selected,
  children,
  headingLevel = 'h2',
}: {
  plan: Plan;
  selected?: boolean;
  children?: ReactNode;
  headingLevel?: 'h2' | 'h3';
}) {
  const Heading = headingLevel;
  return (
    <div
      className={cn(
        'relative flex h-full flex-col rounded-xl border bg-zinc-900/70 p-6',
        plan.popular ? 'border-violet-500' : 'border-zinc-800',
        selected && 'ring-2 ring-violet-400',
      )}
    >
      {plan.popular ? (
        <Badge tone="violet" className="absolute -top-3 left-6 bg-violet-600 text-white">
          Most Popular
        </Badge>
      ) : null}
      <Heading className="text-xl font-semibold text-zinc-50">{plan.name}</Heading>
      <p className="mt-1 text-sm text-zinc-400">{plan.description}</p>
      <p className="mt-4">
        <span className="text-4xl font-bold text-zinc-50">{formatCents(plan.priceCents)}</span>
        <span className="text-zinc-400"> / {plan.period}</span>
      </p>
      <ul className="mt-5 grid gap-2 text-sm text-zinc-200">
        {plan.features.map((feature) => (
          <li key={feature} className="flex items-start gap-2">
            <FeatureIcon name="check" className="mt-0.5 size-4 shrink-0 text-violet-300" />
            {feature}
          </li>
        ))}
      </ul>
      {children ? <div className="mt-auto pt-6">{children}</div> : null}
    </div>
  );
}
