import type { TrackType } from '../../../../audio';
import { Button } from '../../../components/ui/button';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { describeProgress } from '../../../lib/upload-progress';
import type { TrackUpload } from '../flow-state';

/**
 * The save of an upload box's file to the account: a real progress bar (bytes sent of total, speed, time
 * left) with Cancel while it runs; Retry (same file, not chosen again) after a failure or a cancel.
 */
export function UploadStatus(props: {
  type: TrackType;
  upload: TrackUpload | null;
  onCancel: () => void;
  onRetry: () => void;
}) {
  const { upload } = props;
  if (!upload) return null;
  const testId = `upload-progress-${props.type}`;
  if (upload.status === 'uploading') {
    const { progress } = upload;
    const percent = progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
    return (
      <div className="mt-3 grid gap-1.5" data-testid={testId} data-state="uploading">
        <div className="flex items-center justify-between gap-2 text-xs text-zinc-300">
          <span>Saving to your account</span>
          <Button variant="outline" size="sm" onClick={props.onCancel}>
            Cancel upload
          </Button>
        </div>
        <ProgressBar
          percent={percent}
          label={`Upload of the ${props.type} track`}
          className="h-1.5 rounded"
        />
        <span className="text-xs tabular-nums text-zinc-400" data-testid={`${testId}-text`}>
          {describeProgress(progress)}
        </span>
      </div>
    );
  }
  if (upload.status === 'saved')
    return (
      <p className="mt-3 text-xs text-emerald-300" data-testid={testId} data-state="saved">
        Saved to your account
      </p>
    );
  return (
    <div
      className="mt-3 flex flex-wrap items-center gap-2 text-xs"
      data-testid={testId}
      data-state={upload.status}
    >
      <span className={upload.status === 'failed' ? 'text-red-300' : 'text-zinc-300'}>
        {upload.status === 'failed' ? `Upload failed: ${upload.message}` : 'Upload cancelled'}
      </span>
      <Button variant="outline" size="sm" onClick={props.onRetry}>
        Retry upload
      </Button>
    </div>
  );
}
