/**
 * The registry entry as a source of evidence: what the official MCP Registry holds and verified about a
 * server, as the committed dataset keeps it (data/README.md: the registry dump of 2026-03-02, and the
 * upstream scoring run's reading of the entry for the website and the secret variables).
 *
 * What the registry verifies is provenance: it grants a namespace only to whoever proved control of it. A
 * reverse-DNS namespace (`com.notion`, `app.linear`) is granted only after a DNS or HTTP proof of control of
 * that domain; `io.github.<login>` only to that GitHub login, signed in. A domain costs money and names an
 * organisation, a GitHub login is free: both are proofs, the domain the stronger.
 */
import { curatorOf, isCatalogName } from '../../model/catalog.js';
import type { SignalReading } from '../../model/evidence.js';
import { isPackageServerName } from '../../model/package-servers.js';
import type { ServerRecord } from '../../model/schema.js';
import type { EvidenceSource, SignalRule, SourceReading } from '../evidence-source.js';
import { parseGitHubRepo } from '../facts.js';
import { isTemplateDescription } from '../signals.js';
import { measured, missing } from './reading.js';

/** When the registry entries the dataset holds were read: the newest dump (data/README.md). */
export const REGISTRY_DUMP_AT = '2026-03-02T04:28:00Z';
export const REGISTRY_BY = 'the official MCP Registry (registry.modelcontextprotocol.io), dump of 2026-03-02';

const GITHUB_NAMESPACE = /^io\.github\.([^/]+)$/i;

/** How the registry verified the publisher of a namespace: a domain's DNS/HTTP proof, or a GitHub sign-in. */
export function namespaceVerification(namespace: string): 'domain' | 'github' {
  return GITHUB_NAMESPACE.test(namespace) ? 'github' : 'domain';
}

/** Lower-cased without `.`, `-` and `_`, as the upstream method compares a namespace with an owner. */
const comparable = (text: string): string => text.toLowerCase().replace(/[.\-_]/g, '');

/**
 * Whether the repository's GitHub owner is the verified publisher: for `io.github.<login>` the login itself;
 * for a domain, an owner that a label of the domain names (`com.stripe` and `github.com/stripe`).
 */
export function ownerMatchesNamespace(namespace: string, owner: string): boolean {
  const login = GITHUB_NAMESPACE.exec(namespace)?.[1];
  if (login !== undefined) return login.toLowerCase() === owner.toLowerCase();
  const wanted = comparable(owner);
  if (wanted === '') return false;
  const labels = namespace.split('.').slice(1).map(comparable);
  return labels.some((label) => label.length >= 3 && (label === wanted || wanted.includes(label)));
}

const REMOTE_TRANSPORTS = new Set(['streamable-http', 'sse']);

function transports(record: ServerRecord): string[] {
  const types = [...record.install.transport_types];
  for (const remote of record.remotes ?? []) if (!types.includes(remote.type)) types.push(remote.type);
  return types;
}

/** Package registries whose packages are published under an account and versioned immutably. */
const PACKAGE_POINTS: Readonly<Record<string, number>> = { npm: 15, pypi: 15, nuget: 15, cargo: 15, oci: 12, mcpb: 8 };
const PACKAGE_POINTS_OTHER = 5;

const CREDENTIAL_WORDS: Readonly<Record<number, string>> = { 20: 'none', 15: 'api-key', 5: 'sensitive' };
const CREDENTIAL_POINTS: Readonly<Record<string, number>> = { none: 20, 'api-key': 15, sensitive: 5 };
const SECRET_POINTS = [40, 30, 20, 10];

/** The signals this source reads of a registry entry, in order: what a server with none has missing. */
const REGISTRY_SIGNALS = [
  'namespace_verification',
  'source_repository_listed',
  'repository_owner_is_publisher',
  'distribution',
  'description_specific',
  'has_website',
  'secret_env_var_count',
  'credential_request',
  'transport',
  'package_registry',
] as const;

/**
 * A server only a curator's catalog lists (`catalog:<curator>/<id>`) has no registry entry: every signal of
 * this source is missing for that reason. What the curator declares (image, package, repository) is not a
 * registry entry's declaration behind a verified namespace: no one proved control of anything, so it is kept in
 * the record (`listings`, `install`, `packages`) and scores nothing (docs/method.md, "Catalog servers").
 */
function readCatalogListing(record: ServerRecord): SourceReading {
  const listing = record.listings?.[0];
  return notInRegistry(
    `not in the official MCP Registry: listed only by ${listing === undefined ? 'a curator' : curatorOf(listing)}`,
  );
}

/**
 * Every signal of this source missing for `why`: a server with no registry entry (a catalog's, or a package
 * that checks asked about, `package:<registry>/<name>`, whose package registry no one proved a namespace to).
 */
function notInRegistry(why: string): SourceReading {
  const signals: Record<string, SignalReading> = {};
  for (const name of REGISTRY_SIGNALS) signals[name] = missing('registry', why);
  return {
    source: 'registry',
    state: { measured: false, at: null, by: null, third_party: false, missing: why.slice(0, 200) },
    signals,
    findings: [],
  };
}

function readRegistry(record: ServerRecord): SourceReading {
  if (isCatalogName(record.name)) return readCatalogListing(record);
  if (isPackageServerName(record.name))
    return notInRegistry('not in the official MCP Registry: known only as a package that checks asked about');
  const slash = record.name.indexOf('/');
  const namespace = record.name.slice(0, slash);
  // The record was checked against the record schema: its upstream signals, when present, are typed.
  const s = record.signals;
  const repoUrl = record.install.repo_url;
  const github = parseGitHubRepo(repoUrl);
  const types = transports(record);
  const hasRemote = (record.remotes?.length ?? 0) > 0 || types.some((type) => REMOTE_TRANSPORTS.has(type));
  const hasPackage = record.install.package_types.length > 0 || (record.packages?.length ?? 0) > 0;
  const notFromRun = 'the dataset holds no reading of this registry entry by the scoring run';
  const signals: Record<string, SignalReading> = {
    namespace_verification: measured('registry', namespaceVerification(namespace)),
    source_repository_listed: measured('registry', repoUrl !== null),
    repository_owner_is_publisher:
      github !== null
        ? measured('registry', ownerMatchesNamespace(namespace, github.owner))
        : missing(
            'registry',
            repoUrl === null ? 'no repository in the registry entry' : 'the repository is not on GitHub',
          ),
    distribution: measured(
      'registry',
      hasPackage && hasRemote ? 'package and remote' : hasPackage ? 'package' : hasRemote ? 'remote' : 'none',
    ),
    description_specific:
      record.description === undefined
        ? missing('registry', 'the dataset does not carry the registry description')
        : measured('registry', record.description !== null && !isTemplateDescription(record.description)),
    has_website:
      typeof s?.has_website_url === 'boolean'
        ? measured('registry', s.has_website_url)
        : missing('registry', notFromRun),
    secret_env_var_count:
      typeof s?.secret_env_var_count === 'number'
        ? measured('registry', s.secret_env_var_count)
        : missing('registry', notFromRun),
    credential_request:
      typeof s?.credential_sensitivity === 'number' && CREDENTIAL_WORDS[s.credential_sensitivity] !== undefined
        ? measured('registry', CREDENTIAL_WORDS[s.credential_sensitivity]!)
        : missing('registry', notFromRun),
    transport: measured('registry', types.length === 0 ? 'none' : types.join(',')),
    package_registry: measured(
      'registry',
      hasPackage ? record.install.package_types.join(',') || 'unknown' : hasRemote ? 'remote only' : 'none',
    ),
  };
  const remoteTypes = types.filter((type) => REMOTE_TRANSPORTS.has(type));
  const findings =
    remoteTypes.length > 0 && remoteTypes.every((type) => type === 'sse')
      ? [{ flag: 'SSE_ONLY', detail: 'the registry entry lists SSE as its only remote transport' }]
      : [];
  return {
    source: 'registry',
    state: { measured: true, at: REGISTRY_DUMP_AT, by: REGISTRY_BY, third_party: true, missing: null },
    signals,
    findings,
  };
}

export const registrySource: EvidenceSource = {
  name: 'registry',
  read: ({ record }) => readRegistry(record),
};

const yes = (value: boolean | number | string): boolean => value === true;

/**
 * The registry's rules. Provenance: who the registry verified, and whether the entry names source that can
 * be inspected. Permissions: what the entry asks of the user (secrets, credentials) and how it runs. Only
 * the namespace is verified by the registry; everything else is the publisher's own word (`declared`),
 * which the confidence counts when a verified domain, a read repository, a package or a probe vouches for it.
 */
export const REGISTRY_RULES: readonly SignalRule[] = [
  {
    signal: 'namespace_verification',
    source: 'registry',
    subscore: 'provenance',
    max: 30,
    points: (v) => (v === 'domain' ? 30 : v === 'github' ? 10 : 0),
    explain: (v) =>
      v === 'domain'
        ? 'a namespace the registry granted after a proof of control of its domain'
        : 'a namespace the registry granted to a signed-in GitHub account',
    // A domain names an organisation that proved control of it; a GitHub login is free to make, so on its
    // own it vouches for nothing the entry declares.
    vouches: (v) => v === 'domain',
  },
  {
    signal: 'source_repository_listed',
    declared: true,
    source: 'registry',
    subscore: 'provenance',
    max: 15,
    points: (v) => (yes(v) ? 15 : 0),
    explain: (v) =>
      yes(v) ? 'a source repository in the registry entry' : 'no source repository in the registry entry',
  },
  {
    signal: 'repository_owner_is_publisher',
    declared: true,
    source: 'registry',
    subscore: 'provenance',
    max: 10,
    points: (v) => (yes(v) ? 10 : 0),
    explain: (v) =>
      yes(v)
        ? 'a repository owned by the verified publisher'
        : 'a repository owned by someone other than the verified publisher',
  },
  {
    signal: 'distribution',
    declared: true,
    source: 'registry',
    subscore: 'provenance',
    max: 10,
    points: (v) => (v === 'none' ? 0 : 10),
    explain: (v) =>
      v === 'none' ? 'no package and no remote: nothing to install or reach' : `distributed as ${String(v)}`,
  },
  {
    signal: 'description_specific',
    declared: true,
    source: 'registry',
    subscore: 'provenance',
    max: 5,
    points: (v) => (yes(v) ? 5 : 0),
    explain: (v) => (yes(v) ? 'a description of its own' : 'an empty or template description'),
  },
  {
    signal: 'has_website',
    declared: true,
    source: 'registry',
    subscore: 'provenance',
    max: 5,
    points: (v) => (yes(v) ? 5 : 0),
    explain: (v) => (yes(v) ? 'a website' : 'no website'),
  },
  {
    signal: 'secret_env_var_count',
    declared: true,
    source: 'registry',
    subscore: 'permissions',
    max: 40,
    points: (v) => (typeof v === 'number' ? (SECRET_POINTS[v] ?? 0) : 0),
    explain: (v) =>
      `${String(v)} secret environment variable${v === 1 ? '' : 's'} asked for (0: 40, 1: 30, 2: 20, 3: 10, more: 0)`,
  },
  {
    signal: 'credential_request',
    declared: true,
    source: 'registry',
    subscore: 'permissions',
    max: 20,
    points: (v) => CREDENTIAL_POINTS[String(v)] ?? 0,
    explain: (v) =>
      v === 'none'
        ? 'no credential-like variable asked for'
        : v === 'api-key'
          ? 'an API key or token asked for'
          : 'a sensitive credential asked for (wallet, private key, database password)',
  },
  {
    signal: 'transport',
    declared: true,
    source: 'registry',
    subscore: 'permissions',
    max: 25,
    points: (v) => {
      const types = String(v).split(',');
      if (v === 'none') return 0;
      return types.every((type) => type === 'sse') ? 15 : 25;
    },
    explain: (v) =>
      v === 'none'
        ? 'no transport listed'
        : String(v)
              .split(',')
              .every((type) => type === 'sse')
          ? 'SSE only, a transport the MCP specification deprecates'
          : `transport ${String(v)}`,
  },
  {
    signal: 'package_registry',
    declared: true,
    source: 'registry',
    subscore: 'permissions',
    max: 15,
    points: (v) => {
      if (v === 'remote only') return 15;
      if (v === 'none') return 0;
      return Math.max(
        ...String(v)
          .split(',')
          .map((type) => PACKAGE_POINTS[type] ?? PACKAGE_POINTS_OTHER),
      );
    },
    explain: (v) =>
      v === 'remote only'
        ? 'no package to run locally (a remote)'
        : v === 'none'
          ? 'no package and no remote'
          : `packages from ${String(v)} (npm, PyPI, NuGet 15; OCI 12; MCPB 8; other 5)`,
  },
];
