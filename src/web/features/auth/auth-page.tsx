import { FeatureIcon } from '../../components/feature-icon';
import { Card } from '../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { usePageTitle } from '../../lib/use-page-title';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';

const PERKS = [
  'Mix vocals with any instrumental on a clip timeline',
  'Master with Clean, Balanced and Loud presets',
  'Manual mastering controls on the Unlimited plan',
  'Export radio-ready WAV and MP3 files',
  'Everything runs in your browser: no installs',
];

export function AuthPage() {
  usePageTitle('Log in or register');
  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 lg:grid-cols-2 lg:py-16" data-state="ready">
      <Card className="self-start">
        <h1 className="text-2xl font-bold text-zinc-50">Welcome to Master Your Mix</h1>
        <p className="mt-1 text-sm text-zinc-400">Log in to your account or create a new one.</p>
        <Tabs defaultValue="login" className="mt-6">
          <TabsList>
            <TabsTrigger value="login">Login</TabsTrigger>
            <TabsTrigger value="register">Register</TabsTrigger>
          </TabsList>
          <TabsContent value="login">
            <LoginForm />
          </TabsContent>
          <TabsContent value="register">
            <RegisterForm />
          </TabsContent>
        </Tabs>
      </Card>
      <section
        aria-labelledby="auth-marketing"
        className="rounded-xl border border-violet-500/30 bg-gradient-to-br from-violet-900/60 to-zinc-900 p-8"
      >
        <h2 id="auth-marketing" className="text-2xl font-bold text-zinc-50">
          Professional sound, straight from your browser
        </h2>
        <p className="mt-2 text-zinc-300">
          Join vocalists, producers and studios who finish their tracks with Master Your Mix.
        </p>
        <ul className="mt-6 grid gap-3">
          {PERKS.map((perk) => (
            <li key={perk} className="flex items-start gap-3 text-zinc-100">
              <FeatureIcon name="check" className="mt-0.5 size-5 shrink-0 text-violet-300" />
              {perk}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
