import { twMerge } from 'tailwind-merge';

/**
 * Joins class names, skipping falsy ones, and lets a later Tailwind class win over an earlier one of the same
 * property: a caller's `className="px-0"` must beat a component's own `px-3`, which plain concatenation leaves
 * to the stylesheet's order. Our theme only adds a font family, so tailwind-merge's default config fits.
 */
export const cn = (...parts: Array<string | false | null | undefined>): string => twMerge(parts);
