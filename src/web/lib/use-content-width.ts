import { type RefObject, useEffect, useState } from 'react';

/**
 * An element's content width in CSS pixels, from its ResizeObserver's entries (the first comes once it is
 * laid out; 0 before). Taken from the entry, never read from the element: a `clientWidth` read in a render
 * or an effect forces the page's restyle and layout there, a long task on a large page (decision 292).
 */
export function useContentWidth(ref: RefObject<Element | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
