import { Link } from 'react-router';
import { PLANS } from '../../../../shared/plans';
import { TEXT } from '../mastering-texts';

/**
 * Under a Mode field whose Manual choice the plan does not allow: why, and where to get it (decision 222).
 * The single track's controls and each album track's manual controls show the same line.
 */
export function ManualLockedHint() {
  return (
    <p className="text-sm text-amber-300">
      {TEXT.manualHint}.{' '}
      <Link to="/pricing" className="underline underline-offset-4">
        See the {PLANS.unlimited.name} plan
      </Link>
    </p>
  );
}
