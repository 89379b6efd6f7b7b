/**
 * The client a request is counted under for Get Access (keys issued per address and day).
 *
 * By default that is the connection's address. Behind proxies that append to `X-Forwarded-For`, the
 * operator says how many there are (`TRUST_PROXY_HOPS=n`): the n-th address from the right is the client's,
 * as Express's numeric `trust proxy` reads it. Only the right end can be trusted: a client writes whatever it
 * likes at the left, and each trusted proxy appends the address it saw. An entry that is not an IP address
 * (or a header too short for n hops) is ignored and the connection's address counts instead, so no text a
 * client sends can name a new counter. On Vercel the platform names the client itself (`src/http/vercel.ts`).
 *
 * IPv6 clients are counted by their /64, the block one subscriber is usually given: otherwise one host could
 * take a fresh address from its block for every key.
 */
import { isIP } from 'node:net';

/** The most proxy hops that may be configured; a chain longer than this is a configuration mistake. */
export const MAX_TRUST_PROXY_HOPS = 10;

export interface AddressedRequest {
  /** The connection's address (or, on a platform, the client address the platform names). */
  address?: string;
  /** The `X-Forwarded-For` header, as received. */
  forwardedFor?: string | null;
}

/**
 * The key a request's client is counted under: an IPv4 address, an IPv6 /64 (`2001:db8:0:1::/64`), or
 * `unknown` when there is no valid address at all.
 */
export function clientAddress(request: AddressedRequest, trustProxyHops: number): string {
  if (trustProxyHops > 0 && request.forwardedFor) {
    const entries = request.forwardedFor.split(',');
    const forwarded = counted(entries[entries.length - trustProxyHops]?.trim() ?? '');
    if (forwarded !== undefined) return forwarded;
  }
  return counted(request.address ?? '') ?? 'unknown';
}

/** The counted form of `text`, or undefined when it is not an IP address. */
export function counted(text: string): string | undefined {
  // A zone (`fe80::1%eth0`) names an interface of the receiving host, not a different client.
  const address = text.includes('%') ? text.slice(0, text.indexOf('%')) : text;
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return undefined;
  const groups = ipv6Groups(address);
  // An IPv4 client seen on a dual-stack socket (`::ffff:192.0.2.1`) is that IPv4 client.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (as `isIP` accepts it, an embedded IPv4 tail included). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // `::ffff:192.0.2.1` → `::ffff:c000:201`: the dotted tail as its two groups.
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const gap = text.indexOf('::');
  const head = parse(gap === -1 ? text : text.slice(0, gap));
  const rest = gap === -1 ? [] : parse(text.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}
