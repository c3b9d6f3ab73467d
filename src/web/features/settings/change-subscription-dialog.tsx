import { useState } from 'react';
import type { PublicUser } from '../../../shared/api/user';
import type { PlanId } from '../../../shared/plans';
import { Button } from '../../components/ui/button';
import { PlanChangeDialog } from '../billing/plan-change-dialog';

/** Settings' 'Change Subscription' button: the plan-change flow Pricing and Checkout also open. */
export function ChangeSubscriptionDialog({ user }: { user: PublicUser & { subscriptionType: PlanId } }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Change Subscription
      </Button>
      <PlanChangeDialog user={user} open={open} onOpenChange={setOpen} />
    </>
  );
}
