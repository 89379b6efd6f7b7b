/**
 * What identifies a server in a client's configuration, compared the way each ecosystem compares it:
 * `<registry_type>:<identifier>` for a package, a URL for a remote. The build files every record's packages
 * and remotes under these keys (`src/format/lookup-table.ts`); reverse lookup and the policy check look a
 * client's identifier up under the same key, so the two sides can never normalise differently.
 */

/** The package registries the official MCP registry knows (`cargo`: crates.io, added by the registry in 2026). */
export const PACKAGE_REGISTRIES = ['npm', 'pypi', 'oci', 'nuget', 'mcpb', 'cargo'] as const;
export type PackageRegistry = (typeof PACKAGE_REGISTRIES)[number];

export function isPackageRegistry(text: string): text is PackageRegistry {
  return (PACKAGE_REGISTRIES as readonly string[]).includes(text);
}

/** Why an identifier cannot be looked up: a message that says what is expected. */
export class IdentifierError extends Error {
  override readonly name = 'IdentifierError';
}

/**
 * An npm package name as published, without a version or tag a command may add (`@scope/pkg@1.2.0`,
 * `pkg@latest`). npm compares names exactly; new names are lower-case, old ones keep their case.
 */
function npmKey(identifier: string): string {
  const at = identifier.indexOf('@', identifier.startsWith('@') ? 1 : 0);
  return at > 0 ? identifier.slice(0, at) : identifier;
}

/**
 * A PyPI project name normalised as the packaging rules say (PEP 503): lower-cased, every run of `-`, `_`
 * and `.` made one `-`; extras (`pkg[cli]`) and a version specifier (`pkg==1.0`, `pkg>=2`) are dropped.
 */
function pypiKey(identifier: string): string {
  const name = identifier.split(/[[\s=<>!~;@]/, 1)[0] ?? '';
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/**
 * An OCI image reference with what Docker leaves implicit made explicit: the registry `docker.io` (also for
 * `index.docker.io`), `library/` for an official image, and no tag or digest (a server is the repository,
 * whichever version a configuration pins). Registry host and repository are lower-case.
 */
function ociKey(identifier: string): string {
  let reference = identifier.trim();
  const digest = reference.indexOf('@');
  if (digest !== -1) reference = reference.slice(0, digest);
  const lastSlash = reference.lastIndexOf('/');
  const colon = reference.lastIndexOf(':');
  if (colon > lastSlash) reference = reference.slice(0, colon);
  const parts = reference.split('/');
  const first = parts[0] ?? '';
  const hasRegistry = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  let registry = hasRegistry ? first.toLowerCase() : 'docker.io';
  if (registry === 'index.docker.io' || registry === 'registry-1.docker.io') registry = 'docker.io';
  const path = (hasRegistry ? parts.slice(1) : parts).join('/').toLowerCase();
  const repository = registry === 'docker.io' && !path.includes('/') ? `library/${path}` : path;
  return `${registry}/${repository}`;
}

/** The key a package is filed under: `<registry_type>:<normalised identifier>`. */
export function packageKey(registryType: string, identifier: string): string {
  const type = registryType.trim().toLowerCase();
  const id = identifier.trim();
  switch (type) {
    case 'npm':
      return `npm:${npmKey(id)}`;
    case 'pypi':
      return `pypi:${pypiKey(id)}`;
    case 'oci':
      return `oci:${ociKey(id)}`;
    case 'nuget':
      // NuGet package ids are case-insensitive.
      return `nuget:${id.toLowerCase()}`;
    case 'cargo':
      // crates.io compares crate names case-insensitively and takes `-` and `_` as the same; a version is dropped.
      return `cargo:${(id.split('@', 1)[0] ?? '').toLowerCase().replace(/_/g, '-')}`;
    case 'mcpb':
      // An MCP bundle is named by the URL it is downloaded from.
      return `mcpb:${urlKey(id) ?? id}`;
    default:
      return `${type}:${id}`;
  }
}

/**
 * A URL as it is compared: scheme and host lower-case (the URL parser does it), the default port and the
 * fragment dropped, a trailing slash of the path ignored; path and query otherwise as given. Undefined for
 * text that is not an absolute http(s) URL.
 */
export function urlKey(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/**
 * `<registry_type>:<identifier>` as a client gives it (`npm:@modelcontextprotocol/server-filesystem`,
 * `pypi:mcp-server-git`, `oci:docker.io/mcp/github`) → its key; an IdentifierError names what is wrong.
 */
export function parsePackageRef(text: string): string {
  const colon = text.indexOf(':');
  const type = colon === -1 ? '' : text.slice(0, colon).trim().toLowerCase();
  const identifier = colon === -1 ? '' : text.slice(colon + 1).trim();
  if (!isPackageRegistry(type) || identifier === '') {
    throw new IdentifierError(
      `package must be <registry_type>:<identifier> with registry_type one of ${PACKAGE_REGISTRIES.join(', ')} ` +
        '(for example npm:@modelcontextprotocol/server-filesystem)',
    );
  }
  return packageKey(type, identifier);
}

/** A remote URL as a client gives it → its key; an IdentifierError when it is not an http(s) URL. */
export function parseRemoteUrl(text: string): string {
  const key = urlKey(text);
  if (key === undefined) throw new IdentifierError('url must be an absolute http:// or https:// URL');
  return key;
}

/** Hosts whose repository paths compare without case (GitHub and GitLab both resolve owner and name so). */
const REPOSITORY_HOSTS = new Set(['github.com', 'gitlab.com']);

/**
 * A source repository URL as it is compared (`GET /v1/lookup?repo=`, a record's repository, a catalog's):
 * `https://<host>/<path>` with `http`, `git+`, `www.`, a `.git` suffix, a trailing slash, query and fragment
 * dropped, and on GitHub and GitLab the path lower-cased and cut to the repository (`owner/name`, or a
 * GitLab group path) before `/-/`, `/tree/` or `/blob/`. Undefined for anything else, or text over 500 characters.
 */
export function repositoryKey(text: string): string | undefined {
  const raw = text.trim();
  if (raw.length === 0 || raw.length > 500) return undefined;
  let url: URL;
  try {
    url = new URL(raw.replace(/^git\+/, '').replace(/^git@([^:/]+):/, 'https://$1/'));
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.port) return undefined;
  const host = url.hostname.replace(/^www\./, '');
  if (!REPOSITORY_HOSTS.has(host)) return undefined;
  let segments = url.pathname.split('/').filter((s) => s !== '');
  const cut = segments.findIndex((s) => s === '-' || s === 'tree' || s === 'blob');
  if (cut !== -1) segments = segments.slice(0, cut);
  if (host === 'github.com') segments = segments.slice(0, 2);
  if (segments.length > 0) segments[segments.length - 1] = segments.at(-1)!.replace(/\.git$/, '');
  if (segments.length < 2 || segments.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return `https://${host}/${segments.join('/').toLowerCase()}`;
}

/** A repository URL as a client gives it → its key; an IdentifierError says what is expected. */
export function parseRepositoryUrl(text: string): string {
  const key = repositoryKey(text);
  if (key === undefined)
    throw new IdentifierError(
      'repo must be a GitHub or GitLab repository URL of at most 500 characters (for example https://github.com/owner/name)',
    );
  return key;
}
