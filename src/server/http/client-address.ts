import net from 'node:net';

/**
 * The client a per-client limit counts: an IPv4 address, or the /64 network of an IPv6 address. One
 * IPv6 subscriber is usually handed a whole /64, so counting single IPv6 addresses would give one
 * attacker 2^64 fresh budgets.
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (net.isIPv6(ip)) return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`;
  return ip;
}

function expandIpv6(ip: string): string[] {
  const [head = '', tail] = ip.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // A trailing dotted IPv4 part fills two groups.
  const dotted = (right.at(-1) ?? left.at(-1) ?? '').includes('.') ? 1 : 0;
  const missing = tail === undefined ? 0 : 8 - left.length - right.length - dotted;
  return [...left, ...Array(missing).fill('0'), ...right].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}
