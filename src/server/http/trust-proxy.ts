import net from 'node:net';

/**
 * Which peers may tell us the client's address through X-Forwarded-For (Fastify's `trustProxy`): nobody
 * (false), the nearest N hops, or peers whose address is in a list. Trusting every peer would let anyone
 * choose the address every per-client limit counts, with one header.
 */
export type TrustProxy = false | number | string[];

/** Names proxy-addr (inside Fastify) understands for common private ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY: unset = trust no one; `2` = two hops; `10.0.0.0/8,192.0.2.7` = those peers. */
export function parseTrustProxy(value: string | undefined): TrustProxy | Error {
  const v = value?.trim() ?? '';
  if (v === '') return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops < 1 || hops > 10) return new Error('a hop count must be between 1 and 10');
    return hops;
  }
  const entries = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (bad.length || entries.length === 0) {
    return new Error(
      `must be a hop count or a comma-separated list of addresses or CIDR ranges (not ${bad.join(', ') || 'empty'})`,
    );
  }
  return entries;
}

/** Fastify's option; a hop count becomes the function Fastify itself would make (its types lack numbers). */
export function fastifyTrustProxy(
  t: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof t === 'number' ? (_address, hop) => hop < t : t;
}
