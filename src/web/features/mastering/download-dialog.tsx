import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog, DialogClose, DialogContent } from '../../components/ui/dialog';
import type { ExportFormat } from './engine-api';
import { TEXT } from './mastering-texts';

const OPTIONS: { format: ExportFormat; label: string; caption: string }[] = [
  { format: 'wav', label: 'WAV', caption: TEXT.wavCaption },
  { format: 'mp3', label: 'MP3', caption: TEXT.mp3Caption },
];

/** Spec 2: 'Choose Download Format', WAV only by default, 'Download (N format(s))' disabled when none. */
export function DownloadDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDownload: (formats: ExportFormat[]) => void;
}) {
  const [chosen, setChosen] = useState<ExportFormat[]>(['wav']);
  const toggle = (format: ExportFormat, on: boolean) =>
    setChosen((c) => (on ? [...c.filter((f) => f !== format), format] : c.filter((f) => f !== format)));
  const ordered = OPTIONS.map((o) => o.format).filter((f) => chosen.includes(f));
  return (
    <Dialog
      open={props.open}
      onOpenChange={(open) => {
        if (open) setChosen(['wav']);
        props.onOpenChange(open);
      }}
    >
      <DialogContent title={TEXT.dialogTitle} description={TEXT.dialogNote}>
        <div className="grid gap-3">
          {OPTIONS.map((o) => (
            <label key={o.format} className="flex items-start gap-3 rounded-md border border-zinc-700 p-3">
              <input
                type="checkbox"
                className="mt-1 size-4 accent-violet-500"
                checked={chosen.includes(o.format)}
                onChange={(e) => toggle(o.format, e.target.checked)}
              />
              <span>
                <span className="block font-medium">{o.label}</span>
                <span className="block text-sm text-zinc-400">{o.caption}</span>
              </span>
            </label>
          ))}
        </div>
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button disabled={ordered.length === 0} onClick={() => props.onDownload(ordered)}>
            {`Download (${ordered.length} format(s))`}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
