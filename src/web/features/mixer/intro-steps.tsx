import { memo } from 'react';

const STEPS = [
  { title: 'Upload your tracks', text: 'Add a vocal take and an instrumental (WAV, MP3 or OGG).' },
  {
    title: 'Arrange your vocals',
    text: 'Drag, cut and delete vocal clips on the timeline, then apply the sequence.',
  },
  {
    title: 'Mix and export',
    text: 'Pick a mix style, create the mixdown, download it or send it to mastering.',
  },
];

/** The 3-step intro at the top of the mixer (spec 2); fixed content, so memoised (the mixer re-renders often). */
export const IntroSteps = memo(function IntroSteps() {
  return (
    <ol className="grid gap-4 sm:grid-cols-3" aria-label="How the mixer works">
      {STEPS.map((step, i) => (
        <li key={step.title} className="flex gap-3 rounded-xl border border-zinc-800 bg-zinc-900/60 p-4">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-violet-600 font-semibold text-white">
            {i + 1}
          </span>
          <div>
            <h2 className="font-semibold text-zinc-50">{step.title}</h2>
            <p className="mt-1 text-sm text-zinc-400">{step.text}</p>
          </div>
        </li>
      ))}
    </ol>
  );
});
