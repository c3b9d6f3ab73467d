import { useSyncExternalStore } from 'react';
import { dismissToast, getToasts, subscribeToasts, toast } from './toast-store';

export const useToasts = () => useSyncExternalStore(subscribeToasts, getToasts, getToasts);

export { dismissToast, toast };
