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
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type http from 'node:http';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { WebhookError } from './errors.js';
import { MAX_RECEIVER_URL_LENGTH } from './subscription.js';

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
  return range === 'unicast' ? undefined : (RULE_NAMES[range] ?? `special-purpose range (${range})`);
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
 * Resolves the URL's host and refuses it (WebhookError `address`, naming the rule and the address) when any
 * address it resolves to may not be reached. Nothing is refused with `allowPrivate`.
 */
export async function checkReceiverAddress(
  url: URL,
  allowPrivate: boolean,
  lookup: Lookup = dnsLookup as Lookup,
): Promise<void> {
  if (allowPrivate) return;
  const host = hostOf(url);
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    lookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
  ).catch((error: NodeJS.ErrnoException) => {
    throw new WebhookError('address', `url's host ${host} does not resolve (${error.code ?? 'lookup failed'})`);
  });
  for (const { address } of addresses) {
    const rule = refusedRule(address);
    if (rule !== undefined) {
      const via = address === host ? '' : ` (${host} resolves to ${address})`;
      throw new WebhookError(
        'address',
        `url points at a ${rule} address${via}; receivers must be on the public internet`,
      );
    }
  }
}

/** The agents every delivery goes through: they refuse a refused address at connection time. */
export interface ReceiverAgents {
  http: http.Agent;
  https: http.Agent;
  destroy(): void;
}

export function receiverAgents(allowPrivate: boolean): ReceiverAgents {
  // Metadata addresses are link-local or unique-local and so already refused; listed again in case a
  // future version of the class list called one of them unicast.
  const options = {
    keepAlive: true,
    maxSockets: 64,
    allowPrivateIPAddress: allowPrivate,
    allowMetaIPAddress: allowPrivate,
    denyIPAddressList: allowPrivate ? [] : [...CLOUD_METADATA],
  };
  const agents = { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
  return {
    ...agents,
    destroy() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
