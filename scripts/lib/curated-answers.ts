/**
 * Which registry servers answer a curator's entry (`scripts/search-queries-set.ts`): ground truth by the
 * repository the curator links, never by name. A link into a folder of a repository that the list links under
 * several names (`Klavis-AI/klavis/tree/main/mcp_servers/discord`) is answered only by the servers whose
 * registry subfolder is that folder: another folder's server is another server, however its name reads.
 * Repositories compare as the service compares them (`repositoryKey`, `src/model/identifiers.ts`).
 */
import { repositoryKey } from '../../src/model/identifiers.js';

/** What a curator lists: its name for the server, what a person types for it, and the links it gives. */
export interface Listed {
  catalog: string;
  typed: string[];
  projects: string[];
}

/** A registry server as the answers need it: its name, repository URL and folder in that repository. */
export interface RegistryServer {
  name: string;
  repoUrl: string | undefined;
  subfolder: string | undefined;
}

/** The folder inside a repository that a link points at (`…/tree/main/servers/discord`), lower-cased. */
export function linkedFolder(url: string): string | undefined {
  const match = /^https?:\/\/[^/]+\/[^/]+\/[^/#?]+\/(?:tree|blob)\/[^/]+\/([^#?]+)/i.exec(url.trim());
  return match ? match[1]!.replace(/\/+$/, '').toLowerCase() : undefined;
}

/** Entries of one name, one entry: a person typing the name means any of them. */
export function mergeSameNames(listed: { catalog: string; typed: string[]; project: string }[]): Listed[] {
  const byName = new Map<string, Listed>();
  for (const { catalog, typed, project } of listed) {
    const known = byName.get(catalog);
    if (known === undefined) byName.set(catalog, { catalog, typed, projects: [project] });
    else known.projects.push(project);
  }
  return [...byName.values()];
}

/** An entry with its answers: the first linked repository that has registry servers, and every such server. */
export interface Answered {
  listed: Listed;
  repository: string;
  expected: string[];
}

/** The entries of `listed` that registry servers answer, with their answers; the rest are left out. */
export function answerEntries(listed: Listed[], servers: RegistryServer[]): Answered[] {
  const byRepository = new Map<string, RegistryServer[]>();
  for (const server of servers) {
    const key = server.repoUrl === undefined ? undefined : repositoryKey(server.repoUrl);
    if (key !== undefined) byRepository.set(key, [...(byRepository.get(key) ?? []), server]);
  }
  const namesLinking = new Map<string, Set<string>>();
  for (const entry of listed) {
    for (const link of entry.projects) {
      const key = repositoryKey(link);
      if (key !== undefined) namesLinking.set(key, (namesLinking.get(key) ?? new Set()).add(entry.catalog));
    }
  }
  const serversOf = (link: string): string[] => {
    const key = repositoryKey(link);
    const inRepository = key === undefined ? [] : (byRepository.get(key) ?? []);
    const folder = linkedFolder(link);
    if (folder === undefined) return inRepository.map((server) => server.name);
    const inFolder = inRepository.filter(({ subfolder }) => {
      const own = subfolder?.replace(/^\.?\/+|\/+$/g, '').toLowerCase();
      return !!own && (own === folder || folder.startsWith(`${own}/`) || own.startsWith(`${folder}/`));
    });
    if (inFolder.length > 0) return inFolder.map((server) => server.name);
    // A repository the list links under this one name: its servers are this entry's, folder or not.
    return (namesLinking.get(key!)?.size ?? 0) > 1 ? [] : inRepository.map((server) => server.name);
  };
  const answered: Answered[] = [];
  for (const entry of listed) {
    const linked = entry.projects.filter((link) => serversOf(link).length > 0);
    if (linked.length === 0) continue;
    const expected = [...new Set(linked.flatMap(serversOf))].sort();
    answered.push({ listed: entry, repository: repositoryKey(linked[0]!)!, expected });
  }
  return answered;
}
