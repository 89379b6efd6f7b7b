/**
 * The reverse-lookup artifact: every record's packages, remote URLs and source repository, filed under the keys of
 * `src/model/identifiers.ts`, so a client's `npx -y @scope/pkg` or remote URL finds the servers it names.
 */
import { packageKey, urlKey } from '../model/identifiers.js';
import type { IndexedRecord } from '../model/schema.js';

export interface LookupArtifact {
  /** packageKey → ascending record ids (a package may belong to several servers). */
  packages: Record<string, number[]>;
  /** urlKey of a remote → ascending record ids. */
  urls: Record<string, number[]>;
  /** repositoryKey of the record's source repository → ascending record ids (since artifact version 8). */
  repositories: Record<string, number[]>;
}

function file(map: Record<string, number[]>, key: string, id: number): void {
  // Own-property check: a key such as "constructor" must not find Object.prototype's.
  const ids = Object.hasOwn(map, key) ? map[key]! : (map[key] = []);
  if (ids.at(-1) !== id) ids.push(id);
}

/** `records` in record-id order. */
export function buildLookup(records: readonly IndexedRecord[]): LookupArtifact {
  const lookup: LookupArtifact = { packages: {}, urls: {}, repositories: {} };
  records.forEach((record, id) => {
    for (const pkg of record.packages ?? []) file(lookup.packages, packageKey(pkg.registry_type, pkg.identifier), id);
    for (const remote of record.remotes ?? []) {
      const key = urlKey(remote.url);
      if (key !== undefined) file(lookup.urls, key, id);
    }
    if (record.repository_key !== undefined) file(lookup.repositories, record.repository_key, id);
    // What a curator's catalog names the server by finds it too: a registry record a catalog server joined is
    // found by the catalog's image (`docker run mcp/x`), package or remote as well as by the registry's.
    for (const listing of record.listings ?? []) {
      if (listing.image !== undefined) file(lookup.packages, packageKey('oci', listing.image), id);
      if (listing.package !== undefined)
        file(lookup.packages, packageKey(listing.package.registry_type, listing.package.identifier), id);
      const remote = listing.remote_url === undefined ? undefined : urlKey(listing.remote_url);
      if (remote !== undefined) file(lookup.urls, remote, id);
    }
  });
  return lookup;
}
