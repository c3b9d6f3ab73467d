import { useEffect } from 'react';

/** Each screen names itself in the tab title, so history and screen readers tell pages apart. */
export const usePageTitle = (title: string): void => {
  useEffect(() => {
    document.title = title ? `${title} · Master Your Mix` : 'Master Your Mix';
  }, [title]);
};
