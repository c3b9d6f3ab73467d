import { type FormEvent, useState } from 'react';
import { MESSAGES } from '../../../shared/messages';
import { FormField } from '../../components/form-field';
import { Button } from '../../components/ui/button';

interface Props {
  pending: boolean;
  onSubmit: (factor: { otp?: string; recoveryCode?: string }) => void;
  onBack: () => void;
}

/** The login's second step for accounts with two-factor authentication on. */
export function SecondFactorStep({ pending, onSubmit, onBack }: Props) {
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = value.trim();
    if (!code) {
      setError(MESSAGES.twoFactorRequired);
      return;
    }
    setError(null);
    onSubmit(useRecovery ? { recoveryCode: code } : { otp: code.replace(/\s/g, '') });
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Two-factor authentication">
      <p className="text-sm text-zinc-300">
        {useRecovery
          ? 'Enter one of the recovery codes you saved when you turned on two-factor authentication.'
          : MESSAGES.twoFactorRequired}
      </p>
      <FormField
        key={useRecovery ? 'recovery' : 'otp'}
        label={useRecovery ? 'Recovery code' : 'Authentication code'}
        inputMode={useRecovery ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        autoFocus
        value={value}
        error={error}
        onChange={(e) => setValue(e.target.value)}
      />
      <Button type="submit" disabled={pending}>
        {pending ? 'Verifying...' : 'Verify and log in'}
      </Button>
      <div className="flex flex-wrap justify-between gap-2">
        <Button variant="link" size="sm" className="px-0" onClick={onBack}>
          Back
        </Button>
        <Button
          variant="link"
          size="sm"
          className="px-0"
          onClick={() => {
            setUseRecovery((v) => !v);
            setValue('');
            setError(null);
          }}
        >
          {useRecovery ? 'Use a code from your app' : 'Use a recovery code'}
        </Button>
      </div>
    </form>
  );
}
