/**
 * The manual controls' Live preview (spec 4), shared by the single page and each album track (issue 31):
 * the toggle and the line that says the original is heard through the live chain. One place for both, so
 * the two pages keep the same strings.
 */
export function LivePreviewToggle({
  checked,
  onChange,
  label,
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
  /** Extra words for screen readers where several toggles share a page (the album's tracks). */
  label?: string;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-zinc-300">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="size-4 accent-violet-500"
      />
      Live preview while the original plays
      {label ? <span className="sr-only"> {label}</span> : null}
    </label>
  );
}

/** Said while the original plays through the live chain. */
export function LivePreviewNote() {
  return (
    <span className="text-xs text-violet-300" data-testid="live-preview-note">
      Live preview: you hear your manual settings
    </span>
  );
}
