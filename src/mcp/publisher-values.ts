/**
 * What a record's publisher wrote, as it may reach a model (issue 38, M1). The names, scores, flags and
 * badges are the service's own; a record's description, versions, package identifiers and types, remote
 * URLs and transport types are the publisher's, and a model reads them as text it might follow. Each such
 * value passes on only when it is what its field says (a version looks like a version, a URL is a URL) and
 * short; anything else is replaced by a placeholder that says it was withheld. Descriptions and the
 * per-source evidence detail (which may hold a remote's own tool descriptions) never pass on; of a server's
 * pinned tools, only the names that are tool names and the annotations' yes-or-no hints do (`toolsForModel`).
 */
import type { ServerRecord } from '../model/schema.js';
import type { ServerToolsData } from '../client/trust-source.js';

/** What stands in for a value that is not what its field says. */
export const WITHHELD = {
  version: '(withheld: not a version)',
  identifier: '(withheld: not a package identifier)',
  url: '(withheld: not a URL)',
  kind: '(withheld: not a type name)',
  tool: '(withheld: not a tool name)',
} as const;

/**
 * A version as registries write them: semver with pre-release and build parts, calendar versions, a leading
 * `v`, PEP 440's `1.0.post1`, OCI tags (`latest`, `sha-abc123`): letters, digits and `. + - _`, no spaces.
 */
const VERSION = /^[vV]?[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/;

/**
 * A package identifier: npm (`@scope/name`), PyPI, NuGet, crates, an OCI reference (`host:port/path:tag`,
 * `@sha256:` digests), an MCPB download URL. No white space, quotes or angle brackets, at most 300.
 */
const IDENTIFIER = /^[A-Za-z0-9@][A-Za-z0-9@._~:/+%=-]{0,299}$/;

/** A registry or transport type (`npm`, `pypi`, `streamable-http`). */
const KIND = /^[a-z0-9][a-z0-9._-]{0,31}$/;

const MAX_URL = 300;

export const shownVersion = (value: string): string => (VERSION.test(value) ? value : WITHHELD.version);
export const shownIdentifier = (value: string): string => (IDENTIFIER.test(value) ? value : WITHHELD.identifier);
export const shownKind = (value: string): string => (KIND.test(value) ? value : WITHHELD.kind);

/**
 * An http(s) URL, at most 300 characters, that reads back as itself once parsed (no white space, no
 * characters a parser would escape, no user name or password): what a client would connect to, not prose.
 */
export function isPlainUrl(value: string): boolean {
  if (value.length > MAX_URL || !/^https?:\/\//i.test(value)) return false;
  try {
    const parsed = new URL(value);
    if (parsed.username !== '' || parsed.password !== '') return false;
    return parsed.href === value || parsed.href === `${value}/`;
  } catch {
    return false;
  }
}

export const shownUrl = (value: string): string => (isPlainUrl(value) ? value : WITHHELD.url);

/**
 * A record as an MCP client may see it: the description and the evidence's per-source detail left out, every
 * other publisher value checked as above. A repository URL that is not a plain URL becomes null (unknown), as
 * the record's schema allows no other text there. Still a valid `ServerRecord`.
 */
export function recordForModel(record: ServerRecord): ServerRecord {
  const { description: _publisherText, packages, remotes, evidence, install, ...rest } = record;
  const shown: ServerRecord = {
    ...rest,
    install: {
      repo_url: install.repo_url !== null && isPlainUrl(install.repo_url) ? install.repo_url : null,
      version: install.version === null ? null : shownVersion(install.version),
      package_types: distinct(install.package_types.map(shownKind)),
      transport_types: distinct(install.transport_types.map(shownKind)),
    },
  };
  if (packages !== undefined) {
    shown.packages = packages.map((item) => ({
      registry_type: shownKind(item.registry_type),
      identifier: shownIdentifier(item.identifier),
      version: item.version === null ? null : shownVersion(item.version),
    }));
  }
  if (remotes !== undefined) {
    shown.remotes = remotes.map((item) => ({ type: shownKind(item.type), url: shownUrl(item.url) }));
  }
  if (evidence !== undefined) {
    const { advisories: _a, packages: _p, probe: _r, ...summary } = evidence;
    shown.evidence = summary;
  }
  return shown;
}

/** A tool name as the MCP specification writes them: letters, digits, `_`, `-` and `.`, at most 64 here. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** How many tools a text names; the rest are counted. */
export const MAX_TOOLS_SHOWN = 40;

/** The annotations' hints in words, in this order: what a model may tell a user a tool claims of itself. */
const HINTS = [
  ['read_only', 'read-only'],
  ['destructive', 'destructive'],
  ['idempotent', 'idempotent'],
  ['open_world', 'open-world'],
] as const;

/** A server's pinned tools as a model may see them: no description, schema or title, names checked, bounded. */
export interface ToolsForModel {
  count: number;
  hash: string | null;
  probedAt: string | null;
  /** Who probed: this service's own setting or the credited third party (never the publisher's text). */
  probedBy: string | null;
  thirdParty: boolean | null;
  truncated: boolean;
  reason: string | null;
  /** The first MAX_TOOLS_SHOWN tools: each name (or the withheld placeholder) and the hints it states. */
  tools: { name: string; hints: string[] }[];
}

export function toolsForModel(data: ServerToolsData): ToolsForModel {
  return {
    count: data.tool_count,
    hash: data.hash,
    probedAt: data.probed_at,
    probedBy: data.probed_by,
    thirdParty: data.third_party,
    truncated: data.truncated,
    reason: data.reason,
    tools: data.tools.slice(0, MAX_TOOLS_SHOWN).map((tool) => ({
      name: TOOL_NAME.test(tool.name) ? tool.name : WITHHELD.tool,
      hints: HINTS.flatMap(([key, word]) =>
        tool.annotations[key] === undefined ? [] : [tool.annotations[key] ? word : `not ${word}`],
      ),
    })),
  };
}

/** The list without repeats: two withheld values read the same, and the schema wants items unique. */
const distinct = (items: string[]): string[] => [...new Set(items)];

/**
 * A tool's data as an MCP client may see it: a record, or a page whose `items` are records, each through
 * `recordForModel`; anything else (statistics) unchanged.
 */
export function dataForModel<T extends object>(data: T): T {
  if ('items' in data && Array.isArray(data.items)) {
    return { ...data, items: (data.items as ServerRecord[]).map(recordForModel) };
  }
  if ('install' in data && 'trust_score' in data) return recordForModel(data as unknown as ServerRecord) as T;
  return data;
}
