import { startTransition, useEffect, useState } from 'react';
import { dismissToast, getToasts, subscribeToasts, toast } from './toast-store';

/**
 * The toasts to show, updated as a transition: a toast is raised inside the handler of what the user did
 * (a file chosen, a click), and mounting Radix's toast (its presence reads the computed style, its
 * dismissable layer and announcer) took 5-10 ms of that handler's task on the mixer (decision 297). As a
 * transition React renders it in its own task once the user's own update is committed, a frame later at
 * most. (useSyncExternalStore cannot do this: its updates are always rendered synchronously.)
 */
export const useToasts = () => {
  const [toasts, setToasts] = useState(getToasts);
  useEffect(() => {
    const unsubscribe = subscribeToasts((next) => startTransition(() => setToasts(next)));
    // A toast raised between the first render and this subscription.
    setToasts(getToasts());
    return unsubscribe;
  }, []);
  return toasts;
};

export { dismissToast, toast };
