import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn';

/** Native controls styled for the dark theme: accessible, keyboard-ready and easy to drive in tests. */
export function SelectField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={props.id} className="text-sm font-medium text-zinc-200">
        {props.label}
      </label>
      <select
        id={props.id}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        className="h-10 rounded-md border border-zinc-700 bg-zinc-900 px-3 text-sm text-zinc-50 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:opacity-50"
      >
        {props.children}
      </select>
      {props.hint}
    </div>
  );
}

export function RangeField(props: {
  id: string;
  label: string;
  value: number;
  onChange: (value: number) => void;
  /**
   * The plan this control needs, when the user's plan does not include it: the control is disabled and
   * names the plan (issue 30: a usable-looking slider that answered with an error toast misled).
   */
  lockedTo?: string;
  suffix?: string;
}) {
  return (
    <div className="grid gap-1">
      <div className="flex items-center justify-between text-sm">
        <label htmlFor={props.id} className="flex items-center gap-2 font-medium text-zinc-200">
          {props.label}
          {props.lockedTo ? (
            <span
              id={`${props.id}-lock`}
              data-testid="plan-lock"
              className="rounded-full border border-amber-500/50 px-2 py-0.5 text-xs font-normal text-amber-200"
            >
              <span aria-hidden="true">🔒 </span>
              {props.lockedTo} plan
            </span>
          ) : null}
        </label>
        <output htmlFor={props.id} className="tabular-nums text-zinc-300">
          {props.value}
          {props.suffix}
        </output>
      </div>
      <input
        id={props.id}
        type="range"
        min={0}
        max={100}
        step={1}
        value={props.value}
        disabled={props.lockedTo !== undefined}
        onChange={(e) => props.onChange(Number(e.target.value))}
        className={cn('w-full accent-violet-500', props.lockedTo && 'cursor-not-allowed opacity-50')}
      />
    </div>
  );
}
