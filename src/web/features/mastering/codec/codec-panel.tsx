import { type ReactNode, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { PlainSentence, useShowNumbers } from '../../../components/ui/show-numbers';
import { db, signedDb } from '../common/audio-numbers';
import { useMasterView, type ViewedMaster } from '../common/master-view';
import { CODEC_LABELS, type PreviewCodec } from '../engine/engine-api';
import { aacAvailable } from './codec-preview';
import { type CodecMeasured, codecSentence } from './codec-sentence';

const CODECS: PreviewCodec[] = ['mp3-320', 'aac-256'];
const AAC_MISSING =
  'Unavailable in this browser: it offers no AAC encoder (WebCodecs AudioEncoder, mp4a.40.2)';

function CodecRow({
  codec,
  result,
  aac,
  open,
}: {
  codec: PreviewCodec;
  result: ViewedMaster;
  aac: boolean | null;
  /** The numbers are shown (decision 253); the verdict and the buttons always are. */
  open: boolean;
}) {
  const view = useMasterView();
  const v = result.variants[codec];
  const missing = codec === 'aac-256' && aac === false;
  const active = view?.playing?.kind === 'codec' && view.playing.codec === codec;
  const label = CODEC_LABELS[codec];
  let body: ReactNode;
  if (missing || v?.status === 'unavailable') body = <span className="text-zinc-400">{AAC_MISSING}</span>;
  else if (!v) body = <span className="text-zinc-400">Not encoded yet</span>;
  else if (v.status === 'working')
    body = <span className="text-zinc-400">Encoding and decoding… {v.percent} %</span>;
  else if (v.status === 'failed') body = <span className="text-red-300">Failed: {v.message}</span>;
  else {
    const r = v.codec!;
    body = (
      <span className="grid gap-0.5">
        {/* The verdict in words stays in sight; the figures under it are behind the button. */}
        {r.overCeiling ? (
          <span className="text-amber-300" data-testid={`codec-${codec}-over`}>
            Its peaks go over the {db(result.report.ceilingDbtp, 0)} dB ceiling
          </span>
        ) : (
          <span className="text-emerald-300">
            Its peaks stay under the {db(result.report.ceilingDbtp, 0)} dB ceiling
          </span>
        )}
        <span className="text-zinc-200" hidden={!open}>
          True peak after the codec{' '}
          <span data-testid={`codec-${codec}-true-peak`} className="font-medium">
            {db(r.truePeakDbtp, 2)} dBTP
          </span>{' '}
          ({signedDb(r.truePeakRiseDb, 2)} dB against the master) · {db(r.integratedLufs)} LUFS (
          {signedDb(r.loudnessChangeLu)} LU)
          {v.bytes ? ` · ${(v.bytes / 1_048_576).toFixed(1)} MB` : ''}
        </span>
      </span>
    );
  }
  const ready = v?.status === 'ready';
  return (
    <li
      className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-3 border-t border-zinc-800 py-2 text-sm tabular-nums"
      data-testid={`codec-${codec}`}
      data-state={missing ? 'unavailable' : (v?.status ?? 'idle')}
    >
      <div className="grid gap-1 sm:grid-cols-[8rem_minmax(0,1fr)] sm:gap-3">
        <span className="font-medium text-zinc-100">{label}</span>
        {body}
      </div>
      {missing || v?.status === 'unavailable' ? null : ready ? (
        <Button
          variant={active ? 'primary' : 'outline'}
          aria-pressed={active}
          aria-label={active ? `Back to the master (now playing ${label})` : `Play ${label}`}
          onClick={() => view?.playAs(active ? { kind: 'master' } : { kind: 'codec', codec })}
        >
          {active ? 'Playing' : 'Play'}
        </Button>
      ) : (
        <Button variant="outline" disabled={v?.status === 'working'} onClick={() => view?.encode(codec)}>
          Encode
        </Button>
      )}
    </li>
  );
}

/**
 * Codec preview (issue 19, decision 128): the master through MP3 320 (the download's own encoder) and AAC 256
 * (WebCodecs where the browser has it), decoded back, measured, and playable in the A/B.
 */
export function CodecPanel() {
  const result = useMasterView()?.master;
  const [aac, setAac] = useState<boolean | null>(null);
  const rate = result?.buffer.sampleRate;
  const channels = result?.buffer.numberOfChannels;
  useEffect(() => {
    if (!rate || !channels) return;
    let live = true;
    void aacAvailable(rate, channels).then((ok) => live && setAac(ok));
    return () => {
      live = false;
    };
  }, [rate, channels]);
  if (!result) return null;
  return <CodecCard result={result} aac={aac} />;
}

function CodecCard({ result, aac }: { result: ViewedMaster; aac: boolean | null }) {
  const numbers = useShowNumbers();
  const measuring = !result.analysis;
  const measured: CodecMeasured[] = CODECS.flatMap((c) => {
    const v = result.variants[c];
    return v?.status === 'ready' && v.codec ? [{ label: CODEC_LABELS[c], report: v.codec }] : [];
  });
  return (
    <Card className="grid gap-3" data-testid="codec-panel">
      <div>
        <CardTitle>Codec preview</CardTitle>
        {measuring ? null : (
          <PlainSentence>{codecSentence(measured, result.report.ceilingDbtp)}</PlainSentence>
        )}
      </div>
      {measuring ? (
        <p className="text-sm text-zinc-400">Measuring the master…</p>
      ) : (
        <>
          {measured.length > 0 ? numbers.button : null}
          <CardDescription hidden={measured.length > 0 && !numbers.open}>
            Streaming services send a lossy copy. Encode the master, decode it back and measure what the codec
            did to its peaks; Play puts the decoded version in the A/B.
          </CardDescription>
          <ul className="grid" id={numbers.id}>
            {CODECS.map((c) => (
              <CodecRow key={c} codec={c} result={result} aac={aac} open={numbers.open} />
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
