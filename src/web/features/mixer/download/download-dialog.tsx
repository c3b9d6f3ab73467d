import { useState } from 'react';
import type { ExportFormat } from '../../../../audio';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';

const FORMATS: { id: ExportFormat; label: string; hint: string }[] = [
  { id: 'wav', label: 'WAV', hint: 'High Quality, Uncompressed' },
  { id: 'mp3', label: 'MP3', hint: 'Compressed, Smaller File Size' },
];

interface DownloadDialogProps {
  open: boolean;
  onCancel: () => void;
  onConfirm: (formats: ExportFormat[]) => void;
}

/** The format choice (WAV by default); one credit whatever the number of formats. */
export function DownloadDialog({ open, onCancel, onConfirm }: DownloadDialogProps) {
  const [chosen, setChosen] = useState<ExportFormat[]>(['wav']);
  const toggle = (id: ExportFormat) =>
    setChosen((c) => (c.includes(id) ? c.filter((f) => f !== id) : [...c, id]));
  const count = chosen.length;
  return (
    <Dialog open={open} onOpenChange={(o) => (o ? undefined : onCancel())}>
      <DialogContent
        title="Choose Download Format"
        description="Select one or both formats. You'll only be charged one credit/crown regardless of how many formats you choose."
      >
        <div className="grid gap-3">
          {FORMATS.map((f) => (
            <label
              key={f.id}
              className="flex cursor-pointer items-center gap-3 rounded-lg border border-zinc-700 p-3 hover:bg-zinc-800"
            >
              <input
                type="checkbox"
                checked={chosen.includes(f.id)}
                onChange={() => toggle(f.id)}
                className="size-4 accent-violet-500"
              />
              <span>
                <span className="block font-medium">{f.label}</span>
                <span className="block text-xs text-zinc-400">{f.hint}</span>
              </span>
            </label>
          ))}
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button disabled={count === 0} onClick={() => onConfirm(chosen)}>
            Download ({count} format{count === 1 ? '' : 's'})
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
