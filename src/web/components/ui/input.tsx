import type { InputHTMLAttributes, LabelHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

const field =
  'w-full rounded-md border border-zinc-700 bg-zinc-900 px-3 text-sm text-zinc-50 placeholder:text-zinc-400 ' +
  'focus-visible:border-violet-400 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-violet-400 ' +
  'aria-[invalid=true]:border-red-500 disabled:opacity-50';

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(field, 'h-10', className)} {...props} />;
}

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cn(field, 'min-h-32 py-2', className)} {...props} />;
}

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor.
  return <label className={cn('text-sm font-medium text-zinc-200', className)} {...props} />;
}

/** The error line under a field; its id is referenced by the field's aria-describedby. */
export function FieldError({ id, children }: { id: string; children?: string | null }) {
  if (!children) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-400">
      {children}
    </p>
  );
}
