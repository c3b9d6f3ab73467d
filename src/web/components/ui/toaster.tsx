import * as ToastPrimitive from '@radix-ui/react-toast';
import { cn } from '../../lib/cn';
import { dismissToast, useToasts } from './use-toast';

/**
 * Spec 9: 5000 ms default duration, swipe right past 50 px to dismiss, F8 moves focus to the toast area,
 * which is at most 420 px wide from medium screens up. Bottom right at every width: on a phone the top
 * would cover the header's navigation (issue 30, decision 241).
 */
export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider duration={5000} swipeDirection="right" swipeThreshold={50}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          duration={t.duration}
          type={t.variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          data-variant={t.variant ?? 'default'}
          className={cn(
            'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-9 shadow-xl',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)]',
            'data-[state=closed]:hidden',
            t.variant === 'destructive'
              ? 'border-red-700 bg-red-950 text-red-50'
              : 'border-zinc-700 bg-zinc-900 text-zinc-50',
          )}
        >
          <div className="grid gap-1">
            {t.title ? (
              <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
            ) : null}
            {t.description ? (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {t.description}
              </ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute top-2 right-2 rounded p-1 opacity-80 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-violet-400"
          >
            <svg viewBox="0 0 16 16" className="size-4" aria-hidden="true">
              <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
            </svg>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        hotkey={['F8']}
        className="fixed right-0 bottom-0 z-[100] flex max-h-screen w-full flex-col p-4 md:max-w-[420px]"
      />
    </ToastPrimitive.Provider>
  );
}
