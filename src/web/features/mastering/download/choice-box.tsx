import { cn } from '../../../lib/cn';

/**
 * One checkbox card of a download choice (a format with its caption, or a mix version): the single page's
 * download dialog and the album's download card list the same choices, so they draw them the same way.
 * `dense` is the album card's tighter row (it lists every choice at once, in two columns).
 */
export function ChoiceBox(props: {
  label: string;
  caption?: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  dense?: boolean;
}) {
  const { label, caption, checked, onChange, dense = false } = props;
  return (
    <label
      className={cn(
        'flex gap-3 rounded-md border border-zinc-700',
        caption ? 'items-start' : 'items-center',
        dense ? 'min-h-10 p-2 text-sm' : caption ? 'p-3' : 'px-3 py-2',
      )}
    >
      <input
        type="checkbox"
        className={cn('size-4 shrink-0 accent-violet-500', caption && (dense ? 'mt-0.5' : 'mt-1'))}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      {caption ? (
        <span>
          <span className={cn('block font-medium', dense && 'text-zinc-100')}>{label}</span>
          <span className={cn('block text-zinc-400', dense ? 'text-xs' : 'text-sm')}>{caption}</span>
        </span>
      ) : (
        <span>{label}</span>
      )}
    </label>
  );
}

/** `list` with `item` chosen (at the end, as the user picked it) or left out. */
export const withChoice = <T,>(list: readonly T[], item: T, on: boolean): T[] =>
  on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item);
