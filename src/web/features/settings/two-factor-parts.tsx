import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormField } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { apiJson, userMessage } from '../../lib/api-client';

/** Shown once, right after two-factor authentication is turned on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="mt-4 grid gap-3 rounded-lg border border-amber-500/40 bg-amber-950/30 p-4">
      <p className="text-sm text-amber-100">
        Save these recovery codes somewhere safe. Each one logs you in once if you lose your authenticator
        app. They are shown only now.
      </p>
      <ul className="grid grid-cols-2 gap-2 font-mono text-sm text-zinc-50" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <Button variant="secondary" className="justify-self-start" onClick={onDone}>
        I have saved my recovery codes
      </Button>
    </div>
  );
}

/** Turning it off needs a current code or a recovery code, not just the session. */
export function TurnOffForm({ onDone }: { onDone: () => Promise<unknown> }) {
  const [code, setCode] = useState('');
  const disable = useMutation({
    mutationFn: (value: string) =>
      apiJson<{ message: string }>(
        'POST',
        '/api/auth/2fa/disable',
        /^\d{6}$/.test(value) ? { otp: value } : { recoveryCode: value },
      ),
    onSuccess: async (res) => {
      setCode('');
      toast({ title: 'Two-factor authentication is off', description: res.message });
      await onDone();
    },
    onError: (err) =>
      toast({ title: 'Error', description: userMessage(err, 'Please try again'), variant: 'destructive' }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate(code.replace(/\s/g, ''));
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mt-4 grid gap-3"
      aria-label="Turn off two-factor authentication"
    >
      <FormField
        label="Code from your app or a recovery code"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <Button
        variant="outline"
        type="submit"
        className="justify-self-start"
        disabled={disable.isPending || !code.trim()}
      >
        {disable.isPending ? 'Turning off...' : 'Turn off two-factor authentication'}
      </Button>
    </form>
  );
}
