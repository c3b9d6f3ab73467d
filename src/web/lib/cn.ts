/** Joins class names, skipping falsy ones (a tiny stand-in for clsx: no extra dependency). */
export const cn = (...parts: Array<string | false | null | undefined>): string =>
  parts.filter(Boolean).join(' ');
