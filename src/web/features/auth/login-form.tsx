import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAuth } from '../../app/auth-context';
import { setBypassFlag, useDevBypass } from '../../app/dev-bypass';
import { FormField, PasswordField } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { errorCode } from '../../lib/api-client';
import { SecondFactorStep } from './second-factor-step';
import { checkLogin } from './validation';

export function LoginForm() {
  const { loginMutation } = useAuth();
  const { devMode } = useDevBypass();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [needsCode, setNeedsCode] = useState(false);

  const login = (factor?: { otp?: string; recoveryCode?: string }) =>
    loginMutation.mutate(
      { email: email.trim(), password, ...factor },
      {
        onError: (error) => {
          if (errorCode(error) === 'two_factor_required') setNeedsCode(true);
        },
      },
    );

  if (needsCode) {
    return (
      <SecondFactorStep
        pending={loginMutation.isPending}
        onSubmit={login}
        onBack={() => {
          setNeedsCode(false);
          setPassword('');
        }}
      />
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkLogin({ email, password });
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    login();
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Log in">
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <PasswordField
        label="Password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <div className="flex justify-end">
        <Link to="/forgot-password" className="text-sm text-violet-300 underline-offset-4 hover:underline">
          Forgot your password?
        </Link>
      </div>
      <Button type="submit" disabled={loginMutation.isPending}>
        {loginMutation.isPending ? 'Logging in...' : 'Log In'}
      </Button>
      {devMode ? (
        <Button
          variant="outline"
          className="border-red-700 text-red-200 hover:bg-red-950"
          onClick={() => {
            setBypassFlag();
            navigate('/');
          }}
        >
          Developer Bypass (skip login)
        </Button>
      ) : null}
    </form>
  );
}
