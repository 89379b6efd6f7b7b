/**
 * The registry feed over a snapshot: the registry entries of the scored servers, each answered as the
 * registry's `ServerResponse` with the server's trust data under `_meta[TRUST_META_KEY]`, filtered by the
 * deployment's policy and a request's parameters, and paged with cursors. Made once per snapshot (the
 * handler keeps it per engine); each entry's JSON text is made once, on first use.
 */
import type { ServerRecord } from '../model/schema.js';
import type { RegistryArtifact } from './artifact.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { RegistryListParams } from './params.js';
import { admits, type RegistryPolicy } from './policy.js';
import type { RegistryEntry, TrustMeta } from './schema.js';
import { OFFICIAL_META_KEY, TRUST_META_KEY } from './vocabulary.js';

interface Item {
  name: string;
  lower: string;
  entry: RegistryEntry;
  record: ServerRecord;
  /** `updatedAt` as a sortable key (see `timeKey`), or undefined when the registry gave none. */
  updated: string | undefined;
  json?: string;
}

/**
 * A timestamp with any number of fractional digits and any offset, as a key that sorts as the instants
 * do: UTC milliseconds padded, then the fraction's digits beyond them. Undefined when unreadable.
 */
export function timeKey(timestamp: string): string | undefined {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|z|[+-]\d\d:\d\d)$/.exec(timestamp);
  if (match === null) return undefined;
  const milliseconds = Date.parse(`${match[1]}${match[3]!.toUpperCase()}`);
  if (Number.isNaN(milliseconds)) return undefined;
  return `${String(milliseconds + 1e14).padStart(16, '0')}.${(match[2] ?? '').padEnd(9, '0')}`;
}

/** Code points of the lower-cased name, then of the name: the order of records and of the artifact. */
const compareNames = (a: Item, lower: string, name: string) =>
  a.lower !== lower ? (a.lower < lower ? -1 : 1) : a.name < name ? -1 : a.name > name ? 1 : 0;

export interface RegistryPage {
  /** The JSON text of each `ServerResponse` of the page. */
  servers: string[];
  nextCursor: string | undefined;
}

export interface RegistryFeed {
  /** How many entries the snapshot holds (before any policy). */
  readonly size: number;
  /** A page of the feed; `cursor` must have been checked (`isCursor`). */
  list(params: RegistryListParams, policy: RegistryPolicy): RegistryPage;
  /** The JSON text of the server's `ServerResponse` (name in any case), or undefined when the feed lacks it. */
  get(name: string, policy: RegistryPolicy): { json: string; version: string } | undefined;
}

/** Whether `cursor` is one this registry gives. */
export const isCursor = (cursor: string): boolean => decodeCursor(cursor) !== undefined;

/**
 * `server` without a `websiteUrl` that is not http or https: a client shows it as a link, and a publisher
 * could otherwise hand it `javascript:...` or `data:...` (the registry's schema allows any URI).
 */
function linkSafe<T extends { websiteUrl?: string | undefined }>(server: T): T {
  if (server.websiteUrl === undefined || /^https?:\/\//i.test(server.websiteUrl)) return server;
  const { websiteUrl: _dropped, ...rest } = server;
  return rest as T;
}

/**
 * The feed of `artifact`; `recordOf` gives the trust record of a name (the snapshot's `/v1` record).
 * Entries without a record are skipped: the build only keeps entries of scored servers.
 */
export function createRegistryFeed(
  artifact: RegistryArtifact,
  recordOf: (name: string) => ServerRecord | undefined,
  snapshotId: string,
): RegistryFeed {
  const items: Item[] = [];
  for (const entry of artifact.servers) {
    const record = recordOf(entry.server.name);
    if (record === undefined) continue;
    const updatedAt = entry._meta[OFFICIAL_META_KEY].updatedAt;
    items.push({
      name: record.name,
      lower: record.name.toLowerCase(),
      entry,
      record,
      updated: updatedAt === undefined ? undefined : timeKey(updatedAt),
    });
  }
  const byLower = new Map(items.map((item) => [item.lower, item]));

  function jsonOf(item: Item): string {
    if (item.json !== undefined) return item.json;
    const { record } = item;
    const slash = record.name.indexOf('/');
    const [namespace, id] = [record.name.slice(0, slash), record.name.slice(slash + 1)];
    const trust: TrustMeta = {
      trust_score: record.trust_score,
      trust_label: record.trust_label,
      scores: record.scores,
      flags: record.flags,
      verified_publisher: record.verified_publisher,
      scored_at: record.scored_at,
      snapshot_id: snapshotId,
      record_url: `/v1/servers/${encodeURIComponent(namespace)}/${encodeURIComponent(id)}`,
    };
    item.json = JSON.stringify({
      server: linkSafe(item.entry.server),
      _meta: { ...item.entry._meta, [TRUST_META_KEY]: trust },
    });
    return item.json;
  }

  /** The index of the first item after `name` in name order (binary search). */
  function after(name: string): number {
    const lower = name.toLowerCase();
    let low = 0;
    let high = items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareNames(items[middle]!, lower, name) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  return {
    size: items.length,
    list(params, policy) {
      const since = params.updated_since === undefined ? undefined : timeKey(params.updated_since);
      const search = params.search?.toLowerCase();
      const version = params.version === 'latest' ? undefined : params.version;
      const matches = (item: Item) =>
        admits(policy, item.record, params.min_score) &&
        (search === undefined || item.lower.includes(search)) &&
        (version === undefined || item.entry.server.version === version) &&
        (since === undefined || (item.updated !== undefined && item.updated >= since));
      const cursorName = params.cursor === undefined ? undefined : decodeCursor(params.cursor);
      const page: Item[] = [];
      let more = false;
      for (let index = cursorName === undefined ? 0 : after(cursorName); index < items.length; index++) {
        const item = items[index]!;
        if (!matches(item)) continue;
        if (page.length === params.limit) {
          more = true;
          break;
        }
        page.push(item);
      }
      return { servers: page.map(jsonOf), nextCursor: more ? encodeCursor(page.at(-1)!.name) : undefined };
    },
    get(name, policy) {
      const item = byLower.get(name.toLowerCase());
      if (item === undefined || !admits(policy, item.record)) return undefined;
      return { json: jsonOf(item), version: item.entry.server.version };
    },
  };
}
