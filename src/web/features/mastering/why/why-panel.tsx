import type { ReactNode } from 'react';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { PlainSentence, ShowNumbers } from '../../../components/ui/show-numbers';
import { db, hz, monoVerdict, percent, signedDb } from '../common/audio-numbers';
import { useMasterView, type ViewedMaster } from '../common/master-view';
import {
  ACTIVE_REDUCTION_DB,
  biquadResponseDb,
  type DynamicsSummary,
  type FoldDown,
  masteringChainParams,
  octaveMovesDb,
  TONE_EQ_HZ,
} from '../engine/engine-api';
import { GenreWhy } from '../genre/genre-why';
import type { Analysis } from '../mastering-state';
import { measuredBandChanges, whySentence } from './why-sentence';

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <section className="grid gap-1" data-testid={testId}>
      <h3 className="text-sm font-semibold text-zinc-100">{title}</h3>
      <div className="grid gap-1 text-sm text-zinc-300">{children}</div>
    </section>
  );
}

const reduction = (name: string, s: DynamicsSummary): string =>
  s.maxDb < ACTIVE_REDUCTION_DB
    ? `${name} never reduced by more than ${db(ACTIVE_REDUCTION_DB)} dB: it let this track through.`
    : `${name} reduced by up to ${db(s.maxDb)} dB, ${db(s.averageDb)} dB on average over the track ` +
      `(${db(s.averageActiveDb)} dB while working), and worked ${percent(s.activeShare)} of the time.`;

const BAND_NAMES = ['low band (< 150 Hz)', 'mid band (150 Hz – 2.5 kHz)', 'high band (> 2.5 kHz)'];

function Dynamics({ result }: { result: ViewedMaster }) {
  const { compressor, bands, limiter, peakCompressor } = result.report.dynamics;
  return (
    <Section title="Compression and limiting" testId="why-dynamics">
      {bands ? (
        bands.map((b, i) => <p key={BAND_NAMES[i]}>{reduction(`The ${BAND_NAMES[i]} compressor`, b)}</p>)
      ) : compressor ? (
        <p data-testid="why-compressor">{reduction('The compressor', compressor)}</p>
      ) : (
        <p data-testid="why-compressor">The compressor was off (Compression 0).</p>
      )}
      {peakCompressor ? (
        <p data-testid="why-peak-compressor">
          {reduction('The peak compressor ahead of the limiter', peakCompressor)}
        </p>
      ) : null}
      <p data-testid="why-limiter">{reduction('The true-peak limiter', limiter)}</p>
      <p className="text-xs text-zinc-400">
        Measured during the render: the compressor's gain every 16 samples, the limiter's gain as applied;
        "working" means more than {db(ACTIVE_REDUCTION_DB)} dB.
      </p>
    </Section>
  );
}

function Equalisation({
  result,
  original,
  master,
}: {
  result: ViewedMaster;
  original: Analysis;
  master: Analysis;
}) {
  const rate = result.buffer.sampleRate;
  const params = masteringChainParams(result.settings, rate);
  const sliders = TONE_EQ_HZ.map((f) =>
    [params.lowShelf, params.highShelf, params.peaking].reduce(
      (sum, c) => sum + biquadResponseDb(c, f, rate),
      0,
    ),
  );
  const adaptive = result.report.adaptive;
  const analysis = adaptive ? octaveMovesDb(adaptive.toneEqDb, adaptive.eqGrid, rate) : null;
  const tone = (v: number) =>
    v > 0.05 ? 'text-emerald-300' : v < -0.05 ? 'text-amber-300' : 'text-zinc-400';
  return (
    <Section title="Equalisation" testId="why-eq">
      <p>
        The Warmth ({result.settings.warmth}) and Brightness ({result.settings.brightness}) sliders set the
        shelves and the 3 kHz presence lift
        {adaptive
          ? `; the analysis of this track set a corrective EQ ${Math.round((adaptive.genre?.share ?? adaptive.toneMatch) * 100)} % of the way toward the ${adaptive.matched === 'reference' ? 'reference' : 'genre target'}`
          : ''}
        . The EQ's response at each octave, in dB:
      </p>
      {/* On a phone the table scrolls sideways: focusable, so it scrolls from the keyboard too (axe's
          scrollable-region-focusable). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <section className="overflow-x-auto" tabIndex={0} aria-label="EQ response at each octave">
        <table className="w-full text-center text-[11px] tabular-nums sm:text-xs">
          <thead>
            <tr className="text-zinc-400">
              <th className="py-1 text-left font-normal">Hz</th>
              {TONE_EQ_HZ.map((f) => (
                <th key={f} className="py-1 font-normal">
                  {hz(f)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr data-testid="why-eq-sliders">
              <th className="py-1 text-left font-normal text-zinc-400">Sliders</th>
              {sliders.map((g, i) => (
                <td key={TONE_EQ_HZ[i]} className={tone(g)}>
                  {signedDb(g)}
                </td>
              ))}
            </tr>
            {analysis ? (
              <tr data-testid="why-eq-analysis">
                <th className="py-1 text-left font-normal text-zinc-400">Analysis</th>
                {analysis.map((g, i) => (
                  <td key={TONE_EQ_HZ[i]} className={tone(g)}>
                    {signedDb(g)}
                  </td>
                ))}
              </tr>
            ) : null}
          </tbody>
        </table>
      </section>
      <p>Measured change of each band against the original, after the overall loudness change:</p>
      <ul
        className="grid grid-cols-2 gap-1 text-xs tabular-nums sm:grid-cols-4"
        data-testid="why-eq-measured"
      >
        {measuredBandChanges(original, master).map((b) => (
          <li key={b.name} className="rounded bg-zinc-950/60 px-2 py-1">
            <span className="text-zinc-400">{b.name}</span>{' '}
            <span className={tone(b.changeDb)}>{signedDb(b.changeDb)} dB</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Stereo({ original, master }: { original: FoldDown; master: FoldDown }) {
  return (
    <Section title="Stereo and mono" testId="why-stereo">
      <p>
        Left/right correlation {original.correlation.toFixed(2)} before, {master.correlation.toFixed(2)} after
        (1 is mono, 0 unrelated, below 0 out of phase).
      </p>
      <p data-testid="why-mono">
        Folded down to mono, the original loses {db(original.monoLossDb)} dB and the master{' '}
        {db(master.monoLossDb)} dB of loudness: mono check {monoVerdict(master.correlation)}.
      </p>
    </Section>
  );
}

function Result({ result, master }: { result: ViewedMaster; master: Analysis }) {
  const l = master.loudness;
  const plr = l.truePeakDbtp - l.integratedLufs;
  const off = l.integratedLufs - result.targetLufs;
  return (
    <Section title="Result" testId="why-result">
      <p>
        {db(l.integratedLufs)} LUFS against a target of {db(result.targetLufs)} ({signedDb(off)} LU), true
        peak {db(l.truePeakDbtp)} dBTP against a ceiling of {db(result.report.ceilingDbtp)}, loudness range{' '}
        {db(l.loudnessRangeLu)} LU, peak-to-loudness ratio {db(plr)} dB.
      </p>
    </Section>
  );
}

/**
 * "Why it sounds like this" (issue 19, decision 126): in plain words, with the numbers the engine measured
 * on this track — the original, what each stage did during the render, and the master.
 */
export function WhyPanel() {
  const view = useMasterView();
  if (!view) return null;
  const result = view.master;
  const original = view.original;
  const master = result.analysis;
  if (!original || !master)
    return (
      <Card data-testid="why-panel" data-state="measuring">
        <CardTitle>Why it sounds like this</CardTitle>
        <p className="text-sm text-zinc-400">Measuring…</p>
      </Card>
    );
  const input = original.loudness;
  const r = result.report;
  const { compressor, bands, limiter } = r.dynamics;
  const sentence = whySentence({
    // The band compressors are said as one: the deepest of them.
    compressor: bands?.length ? bands.reduce((a, b) => (b.maxDb > a.maxDb ? b : a)) : compressor,
    limiter,
    bandChanges: measuredBandChanges(original, master),
    offTargetLu: master.loudness.integratedLufs - result.targetLufs,
  });
  return (
    <Card className="grid gap-4" data-testid="why-panel" data-state="ready">
      <div>
        <CardTitle>Why it sounds like this</CardTitle>
        <PlainSentence>{sentence}</PlainSentence>
      </div>
      <ShowNumbers className="gap-4">
        <CardDescription>Every number here was measured on this track by the engine.</CardDescription>
        <Section title="Level" testId="why-level">
          <p data-testid="why-input">
            The original came in at {db(input.integratedLufs)} LUFS with a true peak of{' '}
            {db(input.truePeakDbtp)} dBTP.
          </p>
          <p data-testid="why-gain">
            After the EQ and compression it measured {db(r.processedLufs)} LUFS; to reach{' '}
            {db(result.targetLufs)} LUFS the loudness stage applied a static gain of {signedDb(r.gainDb)} dB,
            solved with the limiter in the loop.
          </p>
        </Section>
        <Dynamics result={result} />
        {r.adaptive?.genre ? <GenreWhy plan={r.adaptive.genre} /> : null}
        <Equalisation result={result} original={original} master={master} />
        {original.foldDown && master.foldDown && result.buffer.numberOfChannels === 2 ? (
          <Stereo original={original.foldDown} master={master.foldDown} />
        ) : null}
        <Result result={result} master={master} />
      </ShowNumbers>
    </Card>
  );
}
