import { useState } from 'react';
import { MIX_VERSION_LABELS, MIX_VERSIONS, type MixVersion } from '../../../../shared/mix-versions';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogClose, DialogContent } from '../../../components/ui/dialog';
import type { ExportFormat, ExportRate } from '../engine/engine-api';
import { TEXT } from '../mastering-texts';
import { ChoiceBox, withChoice } from './choice-box';
import { type FormatOption, MORE_OPTIONS, RATE_OPTIONS, SPEC_OPTIONS } from './format-options';

const ORDER = [...SPEC_OPTIONS, ...MORE_OPTIONS].map((o) => o.format);

/**
 * Spec 2: 'Choose Download Format', WAV only by default, 'Download (N format(s))' disabled when none. The
 * studio formats and the sample rate wait behind a closed "More formats" disclosure, so the spec's dialog is
 * what the user sees first.
 */
export function DownloadDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  sourceRate: number;
  /** Issue 18: the master has versions to choose from (a mixer mix). */
  hasVersions?: boolean;
  onDownload: (formats: ExportFormat[], rate: ExportRate, versions: MixVersion[]) => void;
}) {
  const [chosen, setChosen] = useState<ExportFormat[]>(['wav']);
  const [rate, setRate] = useState<ExportRate>('source');
  const [versions, setVersions] = useState<MixVersion[]>(['main']);
  const orderedVersions = props.hasVersions ? MIX_VERSIONS.filter((v) => versions.includes(v)) : [];
  const files = ORDER.filter((f) => chosen.includes(f)).length * Math.max(1, orderedVersions.length);
  const ordered = ORDER.filter((f) => chosen.includes(f));
  const box = (o: FormatOption) => (
    <ChoiceBox
      key={o.format}
      label={o.label}
      caption={o.caption}
      checked={chosen.includes(o.format)}
      onChange={(on) => setChosen((c) => withChoice(c, o.format, on))}
    />
  );
  return (
    <Dialog
      open={props.open}
      onOpenChange={(open) => {
        if (open) {
          setChosen(['wav']);
          setRate('source');
          setVersions(['main']);
        }
        props.onOpenChange(open);
      }}
    >
      <DialogContent
        title={TEXT.dialogTitle}
        description={props.hasVersions ? TEXT.versionsDialogNote : TEXT.dialogNote}
      >
        {props.hasVersions ? (
          <fieldset className="grid gap-2" data-testid="version-choices">
            <legend className="mb-1 font-medium text-zinc-200">{TEXT.versionsLegend}</legend>
            <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
              {MIX_VERSIONS.map((version) => (
                <ChoiceBox
                  key={version}
                  label={MIX_VERSION_LABELS[version]}
                  checked={versions.includes(version)}
                  onChange={(on) => setVersions((v) => withChoice(v, version, on))}
                />
              ))}
            </div>
          </fieldset>
        ) : null}
        <div className="grid gap-3">{SPEC_OPTIONS.map(box)}</div>
        <details className="group rounded-md border border-zinc-800 p-3" data-testid="more-formats">
          <summary className="cursor-pointer font-medium text-zinc-200">{TEXT.moreFormats}</summary>
          <div className="mt-3 grid gap-3 sm:grid-cols-2">{MORE_OPTIONS.map(box)}</div>
          <label className="mt-3 flex flex-wrap items-center gap-3 text-sm">
            <span className="font-medium">{TEXT.rateLabel}</span>
            <select
              className="rounded-md border border-zinc-700 bg-zinc-900 px-2 py-1"
              value={String(rate)}
              onChange={(e) =>
                setRate(e.target.value === 'source' ? 'source' : (Number(e.target.value) as 44_100 | 48_000))
              }
            >
              {RATE_OPTIONS.map((r) => (
                <option key={String(r.rate)} value={String(r.rate)}>
                  {r.label(props.sourceRate)}
                </option>
              ))}
            </select>
          </label>
        </details>
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button
            disabled={ordered.length === 0 || (props.hasVersions === true && orderedVersions.length === 0)}
            onClick={() => props.onDownload(ordered, rate, orderedVersions)}
          >
            {`Download (${ordered.length} format(s))`}
          </Button>
        </div>
        {props.hasVersions ? (
          <p className="text-sm text-zinc-400" data-testid="download-summary">
            {TEXT.versionsSummary(orderedVersions.length, files)}
          </p>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
