/** What a Range header asks of an object of `size` bytes (RFC 9110 section 14, bytes unit only). */
export type RangeRequest =
  | { kind: 'whole' }
  | { kind: 'single'; start: number; end: number }
  | { kind: 'unsatisfiable' };

/**
 * One range only: media elements never ask for more, and multipart/byteranges answers are a known
 * amplification vector, so a list of ranges is refused like a bad one (416).
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const m = /^bytes=(.*)$/i.exec(header.trim());
  // Another unit is not ours to understand: the whole object is the right answer (RFC 9110 14.2).
  if (!m) return /^[a-z]+=/i.test(header.trim()) ? { kind: 'whole' } : { kind: 'unsatisfiable' };
  const spec = m[1]!.trim();
  const parts = /^(\d{0,15})\s*-\s*(\d{0,15})$/.exec(spec);
  if (!parts || size === 0) return { kind: 'unsatisfiable' };
  const [, first, last] = parts as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'unsatisfiable' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    return { kind: 'single', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || (last !== '' && Number(last) < start)) return { kind: 'unsatisfiable' };
  return { kind: 'single', start, end };
}
