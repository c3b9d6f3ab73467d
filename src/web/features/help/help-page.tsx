import { formatCents, PLAN_IDS, PLANS } from '../../../shared/plans';
import { Card } from '../../components/ui/card';
import { usePageTitle } from '../../lib/use-page-title';
import { ContactForm } from './contact-form';
import { FAQ } from './faq';
import { MASTERING_GUIDE } from './mastering-guide';

const STEPS = [
  {
    title: 'Create your free account',
    text: 'Register with your email to use the mixer and mastering in preview mode.',
  },
  {
    title: 'Mix your song',
    text: 'Upload a vocal and an instrumental, arrange the vocal clips on the timeline, apply the sequence and pick a mix style.',
  },
  {
    title: 'Master it',
    text: 'Send the mix to mastering or upload any track, choose Clean, Balanced or Loud, and press Master Track.',
  },
  { title: 'Download', text: 'Subscribers download WAV or MP3; each download uses one credit or crown.' },
];

export function HelpPage() {
  usePageTitle('Help and Support');
  return (
    <div className="mx-auto grid max-w-5xl gap-10 px-4 py-14" data-state="ready">
      <header className="text-center">
        <h1 className="text-4xl font-bold text-zinc-50">Help and Support</h1>
        <p className="mt-3 text-zinc-300">Everything you need to get a great-sounding track out the door.</p>
      </header>

      <section aria-labelledby="quick-start">
        <h2 id="quick-start" className="text-2xl font-bold text-zinc-50">
          Quick start
        </h2>
        <ol className="mt-5 grid gap-4 md:grid-cols-2">
          {STEPS.map((step, i) => (
            <li key={step.title} className="flex gap-4 rounded-xl border border-zinc-800 bg-zinc-900/70 p-5">
              <span
                aria-hidden="true"
                className="flex size-8 shrink-0 items-center justify-center rounded-full bg-violet-600 font-bold text-white"
              >
                {i + 1}
              </span>
              <div>
                <h3 className="font-semibold text-zinc-50">{step.title}</h3>
                <p className="mt-1 text-sm text-zinc-300">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="plan-features">
        <h2 id="plan-features" className="text-2xl font-bold text-zinc-50">
          Plan features
        </h2>
        <div className="mt-5 grid gap-4 md:grid-cols-2">
          {PLAN_IDS.map((id) => (
            <Card key={id}>
              <h3 className="text-lg font-semibold text-zinc-50">
                {PLANS[id].name} · {formatCents(PLANS[id].priceCents)}/month
              </h3>
              <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-zinc-300">
                {PLANS[id].features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            </Card>
          ))}
        </div>
      </section>

      <section aria-labelledby="mastering-guide">
        <h2 id="mastering-guide" className="text-2xl font-bold text-zinc-50">
          What the mastering page does
        </h2>
        <dl className="mt-5 grid gap-3 sm:grid-cols-2" data-testid="mastering-guide">
          {MASTERING_GUIDE.map((item) => (
            <div key={item.name} className="rounded-lg border border-zinc-800 bg-zinc-900/70 p-4">
              <dt className="font-medium text-zinc-50">{item.name}</dt>
              <dd className="mt-1 text-sm text-zinc-300">{item.text}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="faq">
        <h2 id="faq" className="text-2xl font-bold text-zinc-50">
          Frequently asked questions
        </h2>
        <div className="mt-5 grid gap-3">
          {FAQ.map((item) => (
            <details key={item.q} className="group rounded-lg border border-zinc-800 bg-zinc-900/70 p-4">
              <summary className="cursor-pointer font-medium text-zinc-50 focus-visible:outline-2 focus-visible:outline-violet-400">
                {item.q}
              </summary>
              <p className="mt-2 text-sm text-zinc-300">{item.a}</p>
            </details>
          ))}
        </div>
      </section>

      <section aria-labelledby="contact">
        <Card>
          <h2 id="contact" className="text-2xl font-bold text-zinc-50">
            Contact Us
          </h2>
          <p className="mt-1 mb-5 text-sm text-zinc-300">We respond within 24 hours on business days.</p>
          <ContactForm />
        </Card>
      </section>
    </div>
  );
}
