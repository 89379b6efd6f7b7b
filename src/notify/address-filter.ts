/**
 * No request to the sender's own network. A receiver's URL must be `https` (`http` only with
 * `WEBHOOKS_ALLOW_HTTP=true`), at most 2,000 characters, without user info; its host must resolve only to
 * public unicast addresses. The address classes are ipaddr.js's (the list `request-filtering-agent` itself
 * uses), not a hand-written one: everything but `unicast` is refused, plus the cloud metadata addresses.
 *
 * The check runs twice: when a subscription is made (a 400 naming the rule, `checkReceiverAddress`), and on
 * every delivery inside the connection itself (`receiverAgents`): the agent checks the address the lookup gave
 * and the socket connects to that same address, so a DNS answer that changes between the two checks (DNS
 * rebinding) still cannot reach a private address. Deliveries follow no redirect (see `post.ts`).
 * `WEBHOOKS_ALLOW_PRIVATE=true` lifts the address rules, for local testing only.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type http from 'node:http';
import { isIP, type LookupFunction, Socket, type TcpNetConnectOpts } from 'node:net';
import type { Duplex } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { WebhookError } from './errors.js';
import { MAX_RECEIVER_URL_LENGTH } from './subscription-schema.js';

/** Metadata services of cloud providers, refused by name (most already fall in a refused class). */
const CLOUD_METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '169.254.170.2']);

/** ipaddr.js's range names, as a rule a person reads. */
const RULE_NAMES: Record<string, string> = {
  unspecified: 'unspecified address',
  broadcast: 'broadcast address',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT (shared address space)',
  private: 'private network',
  reserved: 'reserved address',
  uniqueLocal: 'unique-local (fc00::/7)',
};

/**
 * IPv6 forms that carry an IPv4 address in their bits and that ipaddr.js calls `unicast`: refused whatever
 * IPv4 address they carry (a system may route them to it; no receiver needs them). `::/96` holds the
 * IPv4-compatible addresses (`::127.0.0.1` is written `::7f00:1`); `64:ff9b:1::/48` is local-use NAT64.
 * The well-known NAT64 prefix, 6to4, Teredo and `::ffff:0:0:0/96` are already special-purpose ranges.
 */
const EMBEDDED_IPV4_RANGES: readonly [string, string][] = [
  ['::/96', 'IPv4-compatible IPv6 (::/96, embeds an IPv4 address)'],
  ['64:ff9b:1::/48', 'local-use NAT64 (64:ff9b:1::/48, embeds an IPv4 address)'],
];
// Parsed on the first check, not at start: a server with webhooks off never checks an address.
let embeddedIpv4Cidrs: ReadonlyArray<readonly [[ipaddr.IPv4 | ipaddr.IPv6, number], string]> | undefined;
const parsedEmbeddedIpv4Cidrs = () =>
  (embeddedIpv4Cidrs ??= EMBEDDED_IPV4_RANGES.map(([cidr, rule]) => [ipaddr.parseCIDR(cidr), rule] as const));

/** An ISATAP interface identifier (`…:0:5efe:a.b.c.d` or `…:200:5efe:a.b.c.d`) embeds an IPv4 address. */
function isIsatap(address: ipaddr.IPv6): boolean {
  const [, , , , high = 0, low = 0] = address.parts;
  return (high === 0 || high === 0x200) && low === 0x5efe;
}

/** Why `address` may not be reached (a rule's name), or undefined when it is a public unicast address. */
export function refusedRule(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (CLOUD_METADATA.has(parsed.toNormalizedString()) || CLOUD_METADATA.has(parsed.toString())) {
    return 'cloud metadata service';
  }
  const range = parsed.range();
  if (range !== 'unicast') return RULE_NAMES[range] ?? `special-purpose range (${range})`;
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    for (const [cidr, rule] of parsedEmbeddedIpv4Cidrs()) if (v6.match(cidr)) return rule;
    if (isIsatap(v6)) return 'ISATAP (embeds an IPv4 address)';
  }
  return undefined;
}

export interface ReceiverRules {
  allowHttp: boolean;
  allowPrivate: boolean;
}

/** The URL when its form is allowed; a WebhookError (`invalid`) naming the rule otherwise. */
export function checkReceiverUrl(text: string, rules: Pick<ReceiverRules, 'allowHttp'>): URL {
  if (text.length > MAX_RECEIVER_URL_LENGTH) {
    throw new WebhookError('invalid', `url must be at most ${MAX_RECEIVER_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookError('invalid', 'url must be an absolute https:// URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && rules.allowHttp)) {
    throw new WebhookError(
      'invalid',
      rules.allowHttp ? 'url must start with https:// or http://' : 'url must start with https://',
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new WebhookError('invalid', 'url must not carry user info (user:password@); authenticate with the signature');
  }
  if (url.hash !== '') throw new WebhookError('invalid', 'url must not have a #fragment');
  return url;
}

export type Lookup = (
  hostname: string,
  options: { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** The URL's host name without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Resolves the URL's host and refuses it (WebhookError `address`) when any address it resolves to may not be
 * reached. A literal address is refused naming its rule (the caller wrote it). A name is refused with one
 * sentence whether it does not resolve or resolves to a refused address, and never says to what it resolves:
 * the answer must not map this network's names. Nothing is refused with `allowPrivate`.
 */
export async function checkReceiverAddress(
  url: URL,
  allowPrivate: boolean,
  lookup: Lookup = dnsLookup as Lookup,
): Promise<void> {
  if (allowPrivate) return;
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    const rule = refusedRule(host);
    if (rule !== undefined) {
      throw new WebhookError('address', `url points at a ${rule} address; receivers must be on the public internet`);
    }
    return;
  }
  const refused = new WebhookError(
    'address',
    `url's host is not allowed: receivers must be on the public internet, under a name that resolves only to public addresses`,
  );
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    lookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
  ).catch(() => {
    throw refused;
  });
  if (addresses.length === 0 || addresses.some(({ address }) => refusedRule(address) !== undefined)) throw refused;
}

/** The agents every delivery goes through: they refuse a refused address at connection time. */
export interface ReceiverAgents {
  http: http.Agent;
  https: http.Agent;
  destroy(): void;
}

type ConnectionListener = (error: Error | null, socket: Duplex) => void;
type ConnectionOptions = TcpNetConnectOpts;

/** `lookup` whose answers pass `refusedRule` too (the library's own check knows only ipaddr.js's classes). */
function checkedLookup(lookup: LookupFunction): LookupFunction {
  return ((hostname: string, options: LookupOptions, callback: (...args: unknown[]) => void) => {
    lookup(hostname, options, ((
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => {
      if (error) return callback(error);
      const all = typeof address === 'string' ? [{ address }] : address;
      const bad = all.find((found) => refusedRule(found.address) !== undefined);
      if (bad !== undefined) return callback(refusal(bad.address));
      return callback(null, address, family);
    }) as never);
  }) as LookupFunction;
}

const refusal = (address: string) =>
  new Error(`address ${address} is not allowed (${refusedRule(address) ?? 'refused'})`);

/**
 * Before the library's agent connects: a literal address is checked here, and every lookup's answer is
 * checked by `checkedLookup` before the socket connects to it. `connect` is the library's own step.
 */
function ruledConnection(
  options: ConnectionOptions,
  listener: ConnectionListener | undefined,
  connect: (options: ConnectionOptions, listener?: ConnectionListener) => Duplex,
): Duplex {
  const host = options.host?.replace(/^\[(.*)\]$/, '$1');
  if (host !== undefined && isIP(host) !== 0 && refusedRule(host) !== undefined) {
    const socket = new Socket();
    if (listener !== undefined) listener(refusal(host), socket);
    else process.nextTick(() => socket.destroy(refusal(host)));
    return socket;
  }
  return connect({ ...options, lookup: checkedLookup(options.lookup ?? (dnsLookup as LookupFunction)) }, listener);
}

type LibraryConnect = (options: ConnectionOptions, listener?: ConnectionListener) => Duplex;

class RuledHttpAgent extends RequestFilteringHttpAgent {
  override createConnection(options: ConnectionOptions, listener?: ConnectionListener): Duplex {
    const connect = (super.createConnection as unknown as LibraryConnect).bind(this);
    return ruledConnection(options, listener, connect);
  }
}

class RuledHttpsAgent extends RequestFilteringHttpsAgent {
  override createConnection(options: ConnectionOptions, listener?: ConnectionListener): Duplex {
    const connect = (super.createConnection as unknown as LibraryConnect).bind(this);
    return ruledConnection(options, listener, connect);
  }
}

/**
 * `keepAlive: false` closes each connection after its exchange (the prober's, where a remote must cost nothing
 * once its probe ends). `refuseMetadata` keeps the cloud metadata addresses refused even with `allowPrivate`
 * (the prober's: a test needs loopback, never a metadata service).
 */
export function receiverAgents(
  allowPrivate: boolean,
  { keepAlive = true, refuseMetadata = false }: { keepAlive?: boolean; refuseMetadata?: boolean } = {},
): ReceiverAgents {
  // Metadata addresses are link-local or unique-local and so already refused; listed again in case a
  // future version of the class list called one of them unicast.
  const options = {
    keepAlive,
    maxSockets: 64,
    allowPrivateIPAddress: allowPrivate,
    allowMetaIPAddress: allowPrivate && !refuseMetadata,
    denyIPAddressList: !allowPrivate
      ? [...CLOUD_METADATA, ...EMBEDDED_IPV4_RANGES.map(([cidr]) => cidr)]
      : refuseMetadata
        ? [...CLOUD_METADATA]
        : [],
  };
  const agents = allowPrivate
    ? { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) }
    : { http: new RuledHttpAgent(options), https: new RuledHttpsAgent(options) };
  return {
    ...agents,
    destroy() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
