/**
 * What the method reads: of a registry entry (`ServerFacts`, as its collector flattens one) and of GitHub
 * (`GitHubFacts`, the three answers its enricher asks for). Both are plain values, so scoring is a pure function
 * of them and of the time of the scan.
 */
import type { UpstreamServer } from '../registry/upstream.js';

/**
 * The members of a registry `ServerDetail` the method reads, as the upstream entry is read
 * (`src/registry/upstream.ts`); every other member is kept but not read.
 */
export type MethodServer = Pick<
  UpstreamServer,
  'name' | 'description' | 'websiteUrl' | 'icons' | 'repository' | 'packages' | 'remotes'
>;

export interface ServerFacts {
  name: string;
  namespace: string;
  serverId: string;
  description: string;
  repoUrl: string | null;
  hasPackages: boolean;
  packageTypes: string[];
  packageIdentifiers: string[];
  hasRemotes: boolean;
  transportTypes: string[];
  envVars: { name: string; isSecret: boolean }[];
  hasWebsite: boolean;
  hasIcon: boolean;
}

/** Flatten a registry entry the way the method's collector does (empty strings count as missing). */
export function factsFromServer(server: MethodServer): ServerFacts {
  const slash = server.name.indexOf('/');
  const packages = server.packages ?? [];
  const remotes = server.remotes ?? [];
  const transportTypes: string[] = [];
  const addTransport = (type: string | null | undefined) => {
    if (type && !transportTypes.includes(type)) transportTypes.push(type);
  };
  const packageTypes: string[] = [];
  const packageIdentifiers: string[] = [];
  const envVars: ServerFacts['envVars'] = [];
  for (const pkg of packages) {
    if (pkg.registryType) packageTypes.push(pkg.registryType);
    if (pkg.identifier) packageIdentifiers.push(pkg.identifier);
    addTransport(pkg.transport?.type);
    for (const variable of pkg.environmentVariables ?? []) {
      envVars.push({ name: variable.name ?? '', isSecret: variable.isSecret === true });
    }
  }
  for (const remote of remotes) addTransport(remote.type);
  return {
    name: server.name,
    namespace: slash >= 0 ? server.name.slice(0, slash) : '',
    serverId: slash >= 0 ? server.name.slice(slash + 1) : server.name,
    description: server.description ?? '',
    repoUrl: server.repository?.url || null,
    hasPackages: packages.length > 0,
    packageTypes,
    packageIdentifiers,
    hasRemotes: remotes.length > 0,
    transportTypes,
    envVars,
    hasWebsite: Boolean(server.websiteUrl),
    hasIcon: (server.icons ?? []).length > 0,
  };
}

/** `GET /repos/{owner}/{repo}`, the members the method reads. */
export interface RepositoryFacts {
  stars: number | null;
  forks: number | null;
  watchers: number | null;
  archived: boolean | null;
  /** The licence's SPDX id as GitHub reports it (`NOASSERTION` included), or null. */
  spdxId: string | null;
  createdAt: string | null;
  pushedAt: string | null;
}

/**
 * What GitHub answered for one repository. `repository: null` is GitHub finding nothing (404) or failing that
 * one request; `community` and `participation` likewise. A whole `GitHubFacts` of null is a repository the
 * method was never able to ask about (see `signalsFor`).
 */
export interface GitHubFacts {
  /** The owner as the registry's repository URL names it (the method compares this, not a moved repository's). */
  owner: string;
  repository: RepositoryFacts | null;
  community: { hasSecurityPolicy: boolean; hasCodeOfConduct: boolean } | null;
  /** Commits per week over the last 52 weeks, all and the owner's; null when GitHub gave none (202, error). */
  participation: { all: number[]; owner: number[] } | null;
}

/** Matches github.com/owner/repo with an optional .git and trailing slash; a repository name with a dot does not. */
const GITHUB_REPO_URL = /^https?:\/\/github\.com\/([^/]+)\/([^/.]+?)(?:\.git)?\/?$/;

/** The owner and repository of a GitHub URL as the method recognises one, or null (not enriched). */
export function parseGitHubRepo(url: string | null): { owner: string; repo: string } | null {
  if (url === null) return null;
  const match = GITHUB_REPO_URL.exec(url.trim());
  if (!match || !isGitHubOwner(match[1]!) || !isGitHubRepoName(match[2]!)) return null;
  return { owner: match[1]!, repo: match[2]! };
}

/**
 * A GitHub account name as GitHub allows one: letters, digits and hyphens, at most 39. Checked before any
 * request, because the name becomes a path segment: `..` would make `/repos/../user` a request to `/user`.
 */
export function isGitHubOwner(name: string): boolean {
  return /^[A-Za-z0-9-]{1,39}$/.test(name);
}

/** A GitHub repository name as GitHub allows one: `[A-Za-z0-9._-]`, at most 100, never `.` or `..`. */
export function isGitHubRepoName(name: string): boolean {
  return /^[A-Za-z0-9._-]{1,100}$/.test(name) && name !== '.' && name !== '..';
}
