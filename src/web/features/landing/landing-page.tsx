import { Link } from 'react-router';
import { FeatureIcon } from '../../components/feature-icon';
import { buttonClasses } from '../../components/ui/button';
import { usePageTitle } from '../../lib/use-page-title';
import { FEATURES } from './features';

export function LandingPage() {
  usePageTitle('');
  return (
    <div data-state="ready">
      <section className="relative overflow-hidden border-b border-zinc-800">
        <div
          aria-hidden="true"
          className="absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(124,58,237,0.35),transparent_60%)]"
        />
        <div className="relative mx-auto max-w-5xl px-4 py-20 text-center sm:py-28">
          <h1 className="text-4xl font-extrabold tracking-tight text-zinc-50 sm:text-6xl">Master Your Mix</h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-zinc-300 sm:text-xl">
            Professional audio mixing and mastering tools that transform your tracks into radio-ready hits
          </p>
          <div className="mt-9 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to="/mixer" className={buttonClasses('primary', 'lg')}>
              Start Mixing Now
            </Link>
            <Link to="/mastering" className={buttonClasses('outline', 'lg')}>
              Try Mastering
            </Link>
          </div>
        </div>
      </section>

      <section aria-labelledby="features-heading" className="mx-auto max-w-7xl px-4 py-16">
        <h2 id="features-heading" className="text-center text-3xl font-bold text-zinc-50">
          Everything you need to finish a track
        </h2>
        <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="rounded-xl border border-zinc-800 bg-zinc-900/70 p-6">
              <span className="flex size-11 items-center justify-center rounded-lg bg-violet-600/20 text-violet-300">
                <FeatureIcon name={feature.icon} />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-zinc-50">{feature.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-zinc-300">{feature.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="border-t border-zinc-800 bg-zinc-900/40">
        <div className="mx-auto max-w-4xl px-4 py-16 text-center">
          <h2 className="text-3xl font-bold text-zinc-50">Ready to hear the difference?</h2>
          <p className="mt-3 text-zinc-300">
            Upload a vocal and a beat and have a finished, mastered song in minutes.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to="/mixer" className={buttonClasses('primary', 'lg')}>
              Start Your Mix Now
            </Link>
            <Link to="/pricing" className={buttonClasses('secondary', 'lg')}>
              View Pricing
            </Link>
          </div>
        </div>
      </section>
    </div>
  );
}
