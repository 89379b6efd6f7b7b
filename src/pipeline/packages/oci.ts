/**
 * OCI images' facts from their registry's own API (the OCI distribution specification, `/v2/`): the token
 * challenge (a 401 with `WWW-Authenticate: Bearer realm=…,service=…,scope=…`, answered by an anonymous pull
 * token from the realm), the manifest of the tag (an image index is followed to its linux/amd64 image, or its
 * first), and the image's config blob, whose labels say where it was built from
 * (`org.opencontainers.image.source`) and when (`org.opencontainers.image.created`).
 *
 * The registry host comes from the identifier, that is from a publisher: like a webhook receiver it must
 * resolve only to public addresses (the filter of `src/notify/address-filter.ts`), and so must the token
 * realm the registry names. No redirect is followed (a blob redirect to storage is refused as unread).
 */
import { lookup as dnsLookup } from 'node:dns';
import * as z from 'zod';
import { refusedRule } from '../../notify/address-filter.js';
import { notFoundFacts, type PackageFacts } from '../../model/package-facts.js';
import { printable } from '../errors.js';
import { readBounded } from '../http-json.js';

export interface OciOptions {
  timeoutMs: number;
  /** For tests only: reach registries on private addresses, over plain http. */
  allowPrivate?: boolean;
  plainHttp?: boolean;
}

const MAX_OCI_BYTES = 4 * 1024 * 1024;
const MANIFEST_TYPES = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

const Descriptor = z.looseObject({
  mediaType: z.string().optional(),
  digest: z.string().regex(/^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/),
  platform: z.looseObject({ os: z.string().optional(), architecture: z.string().optional() }).optional(),
});
const IndexSchema = z.looseObject({ manifests: z.array(Descriptor).min(1) });
const ManifestSchema = z.looseObject({ config: Descriptor });
const ConfigSchema = z.looseObject({
  created: z.string().optional(),
  config: z.looseObject({ Labels: z.record(z.string(), z.string()).nullable().optional() }).optional(),
});
const TokenSchema = z.looseObject({ token: z.string().min(1).optional(), access_token: z.string().min(1).optional() });

/** `host/repo/path:tag` (or `@digest`) → where to ask; docker.io's API is registry-1.docker.io. */
export function ociReference(identifier: string): { host: string; repository: string; reference: string } | undefined {
  // Docker's implicit registry and library/ made explicit, as the lookup keys do (src/model/identifiers.ts).
  let text = identifier.trim();
  const first = text.split('/', 1)[0]!;
  if (!text.includes('/') || !(first.includes('.') || first.includes(':') || first === 'localhost')) {
    text = `docker.io/${text.includes('/') ? '' : 'library/'}${text}`;
  }
  const match =
    /^([a-z0-9.-]+(?::\d{1,5})?)\/([a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*)(?::([A-Za-z0-9_][A-Za-z0-9._-]{0,127})|@(sha256:[a-f0-9]{64}))?$/.exec(
      text,
    );
  if (!match) return undefined;
  const host = match[1] === 'docker.io' || match[1] === 'index.docker.io' ? 'registry-1.docker.io' : match[1]!;
  return { host, repository: match[2]!, reference: match[3] ?? match[4] ?? 'latest' };
}

async function publicHost(hostname: string, allowPrivate: boolean): Promise<string | undefined> {
  if (allowPrivate) return undefined;
  const addresses = await new Promise<{ address: string }[]>((resolve) =>
    dnsLookup(hostname, { all: true }, (error, found) => resolve(error ? [] : found)),
  );
  if (addresses.length === 0) return `${hostname} does not resolve`;
  for (const { address } of addresses) {
    const rule = refusedRule(address);
    if (rule !== undefined) return `${hostname} is a ${rule} address`;
  }
  return undefined;
}

class Unread extends Error {}

/** The facts of an OCI image, or an Unread error's reason. */
export async function ociFacts(
  identifier: string,
  readAt: string,
  options: OciOptions,
  count: () => void,
): Promise<{ facts: Omit<PackageFacts, 'read_at'> } | { missing: string }> {
  const ref = ociReference(identifier);
  if (ref === undefined) return { missing: 'not an image reference with a registry host' };
  const scheme = options.plainHttp ? 'http' : 'https';
  const base = `${scheme}://${ref.host}`;
  let token: string | undefined;

  async function get(url: string, accept: string): Promise<{ status: number; body: Uint8Array; headers: Headers }> {
    const refused = await publicHost(new URL(url).hostname.replace(/^\[(.*)\]$/, '$1'), options.allowPrivate ?? false);
    if (refused !== undefined) throw new Unread(`refused: ${refused}`);
    count();
    const response = await fetch(url, {
      headers: {
        accept,
        'user-agent': 'mcp-trust-score-rescore',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const body = await readBounded(response, MAX_OCI_BYTES);
    return { status: response.status, body, headers: response.headers };
  }

  /** GET with the token challenge answered once. */
  async function authorized(path: string, accept: string) {
    let answer = await get(`${base}${path}`, accept);
    if (answer.status === 401 && token === undefined) {
      const challenge = answer.headers.get('www-authenticate') ?? '';
      const params = Object.fromEntries([...challenge.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
      if (!/^Bearer /i.test(challenge) || !params.realm) throw new Unread('answered 401 without a Bearer challenge');
      const realm = new URL(params.realm);
      if (realm.protocol !== `${scheme}:`) throw new Unread('its token realm is not https');
      if (params.service) realm.searchParams.set('service', params.service);
      realm.searchParams.set('scope', `repository:${ref!.repository}:pull`);
      const tokenAnswer = await get(realm.href, 'application/json');
      if (tokenAnswer.status !== 200) throw new Unread(`its token realm answered ${tokenAnswer.status}`);
      const parsed = TokenSchema.parse(JSON.parse(Buffer.from(tokenAnswer.body).toString('utf8')));
      token = parsed.token ?? parsed.access_token;
      if (token === undefined) throw new Unread('its token realm gave no token');
      answer = await get(`${base}${path}`, accept);
    }
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw new Unread(`answered ${answer.status}`);
    return JSON.parse(Buffer.from(answer.body).toString('utf8')) as unknown;
  }

  try {
    let manifest = await authorized(`/v2/${ref.repository}/manifests/${ref.reference}`, MANIFEST_TYPES);
    if (manifest === undefined)
      return { facts: notFoundFacts('oci', identifier.slice(0, 214), `${ref.host} registry API`) };
    const index = IndexSchema.safeParse(manifest);
    if (index.success) {
      const chosen =
        index.data.manifests.find((m) => m.platform?.os === 'linux' && m.platform.architecture === 'amd64') ??
        index.data.manifests[0]!;
      manifest = await authorized(`/v2/${ref.repository}/manifests/${chosen.digest}`, MANIFEST_TYPES);
      if (manifest === undefined) throw new Unread('its index names a manifest it does not have');
    }
    const config = ManifestSchema.parse(manifest).config;
    const blob = await authorized(`/v2/${ref.repository}/blobs/${config.digest}`, 'application/json');
    if (blob === undefined) throw new Unread('its manifest names a config it does not have');
    const parsed = ConfigSchema.parse(blob);
    const labels = parsed.config?.Labels ?? {};
    const created = labels['org.opencontainers.image.created'] ?? parsed.created;
    const createdMs = created === undefined ? Number.NaN : Date.parse(created);
    const source = labels['org.opencontainers.image.source'];
    return {
      facts: {
        registry_type: 'oci',
        identifier: identifier.slice(0, 214),
        source: `${ref.host} registry API`,
        found: true,
        repository_url: source ? repositoryFromLabel(source) : null,
        latest_version: (labels['org.opencontainers.image.version'] ?? ref.reference).slice(0, 100) || null,
        latest_published_at:
          Number.isNaN(createdMs) || createdMs > Date.parse(readAt) + 86_400_000
            ? null
            : new Date(createdMs).toISOString(),
        versions_past_year: null,
        maintainers: null,
        deprecated: null,
        provenance: null,
        yanked: null,
        security_takedown: false,
      },
    };
  } catch (error) {
    const why =
      error instanceof Unread
        ? error.message
        : error instanceof z.ZodError
          ? 'an answer not of the documented shape'
          : (error as Error).message;
    return { missing: `${ref.host}: ${printable(why, 150)}` };
  }
}

function repositoryFromLabel(text: string): string | null {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\.git$/, '').replace(/\/+$/, '')}`.slice(
      0,
      500,
    );
  } catch {
    return null;
  }
}
