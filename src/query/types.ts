/**
 * What the rest of the service may ask of a loaded snapshot. The gateway, the MCP tools' tests and the
 * benchmarks depend on this interface only; `src/query/engine.ts` implements it over the loaded artifacts.
 */
import type { ListParams } from '../model/schema.js';
import type { HistoryView, ServerChange, SnapshotPair, SnapshotRef } from '../history/history.js';
import type { AdvisoryIndex } from '../model/advisories.js';
import type { ToolsIndex } from '../format/tools-artifact.js';
import type { RegistryArtifact } from '../registry/files.js';
import type { SearchField } from '../search/search.js';

/** A page as JSON text (`json` is the text of the array of records), for responses built without a parse. */
export interface JsonPage {
  json: string;
  total: number;
}

/** A page as record ids in answer order (`QueryEngine.pageJson` makes its text), and how many match in all. */
export interface IdPage {
  ids: readonly number[];
  total: number;
}

/** A normalised package key (`npm:@scope/pkg`), remote URL key or repository key, as `src/model/identifiers.ts` makes them. */
export interface LookupKey {
  kind: 'package' | 'url' | 'repository';
  key: string;
}

/** What a search looks at: server names (the default, as the specification says), registry descriptions. */
export type { SearchField } from '../search/search.js';

export interface SearchOptions {
  /** How many matches to skip (default 0). */
  offset?: number;
  /** Where to look (default names only); with both, a name match always ranks above a description-only one. */
  in?: readonly SearchField[];
}

/** The parts of a snapshot loaded after Get Server's (see `src/query/parts.ts`). */
export type SnapshotPart =
  'lists' | 'search' | 'descriptions' | 'lookup' | 'history' | 'registry' | 'advisories' | 'tools';

export interface SnapshotInfo {
  /** Hash of the snapshot's content: the same dataset always gives the same id. */
  id: string;
  /** When the snapshot was built (ISO 8601 UTC). */
  generatedAt: string;
  /** The newest `scored_at` of its records (ISO 8601 UTC); undefined when it has none. */
  newestScoredAt: string | undefined;
  recordCount: number;
}

export interface QueryEngine {
  readonly snapshot: SnapshotInfo;
  /**
   * Every answer is JSON text: the gateway's hot path never parses and re-serializes a record (tests that
   * want objects parse it, `test/support/engine.ts`).
   */
  statsJson(): string;
  /** The record whose name equals `name` case-insensitively, with its stored spelling. */
  getJson(name: string): string | undefined;
  /** Filter, sort (ties by name ascending) and page, with the semantics of decisions §3 and §6. */
  listJson(params: ListParams): JsonPage;
  /**
   * Name search with the semantics of decisions §4; `q` is trimmed and at least 2 characters. `options.in`
   * adds the records' descriptions (name matches still rank first) or searches them alone; `offset` pages.
   * Searching descriptions needs the `descriptions` part ready.
   */
  searchJson(q: string, limit: number, options?: SearchOptions): JsonPage;
  /** The servers a package or a remote URL belongs to (keys of `src/model/identifiers.ts`), most trusted first. */
  lookupJson(by: LookupKey): JsonPage;

  /*
   * The same four answers as record ids, for a caller that keeps answers (the gateway's response cache
   * keeps an answer asked for once as its ids, a few bytes, rather than its text). `recordJson` and
   * `pageJson` make the text: `getJson(name)` is `recordJson(getId(name))`, `listJson` is `pageJson` of
   * `listIds`' ids, and so on.
   */
  /** The id of the record whose name equals `name` case-insensitively. */
  getId(name: string): number | undefined;
  listIds(params: ListParams): IdPage;
  searchIds(q: string, limit: number, options?: SearchOptions): IdPage;
  lookupIds(by: LookupKey): IdPage;
  /** The JSON text of record `id`. */
  recordJson(id: number): string;
  /** The JSON text of the array of records `ids`, in that order. */
  pageJson(ids: readonly number[]): string;
  /**
   * The same JSON as a binary string (one character per UTF-8 byte, `RecordFile.binary`), for one record (a
   * number) or a page (ids): a response written as `latin1` sends the stored bytes as they are.
   */
  recordsBinary(records: number | readonly number[]): string;
  /** The length in bytes of that JSON. */
  recordsByteLength(records: number | readonly number[]): number;
  /**
   * Copy that JSON's bytes into `target` from `at` on (it must have `recordsByteLength` bytes of room there);
   * returns where they end. A response's body is put together this way in a buffer that goes to the socket.
   */
  copyRecords(records: number | readonly number[], target: Buffer, at: number): number;
  /** The whole score history (undefined for a snapshot built before histories), decoded once, compact. */
  history(): HistoryView | undefined;
  /** The registry entries of the scored servers (undefined for a snapshot built without registry data), parsed once. */
  registry(): RegistryArtifact | undefined;
  /** The advisories the snapshot was scored with, by the package key they affect (empty without any). */
  advisories(): AdvisoryIndex;
  /** The tools pinned per server, by name in any case (none for a snapshot without a tools file). */
  tools(): ToolsIndex;
  /** The score history of the server named `name` (any case), newest first; undefined for an unknown name. */
  historyJson(name: string): string | undefined;
  /**
   * The changes between pairs of kept snapshots (`[older, newer]` positions in the history's snapshots, newest
   * first), a list per pair, made a slice at a time so a long history never holds the event loop.
   */
  changesBetweenPairs(pairs: readonly SnapshotPair[]): Promise<ServerChange[][]>;
  /**
   * Makes the change list since `since` a slice at a time, when the history holds that snapshot and the
   * list is not made yet; `changesJson` reads it then (and makes it in one go if this was not awaited).
   */
  prepareChanges(since: string): Promise<void>;
  /**
   * What changed since the kept snapshot `since`, one entry per server by name, paged; `unknown` with the
   * oldest kept snapshot when `since` is not one this snapshot's history holds.
   */
  changesJson(
    since: string,
    limit: number,
    offset: number,
  ): JsonPage | { unknown: true; oldest: SnapshotRef; count: number };

  /**
   * Resolves once the part of the snapshot a request needs is loaded (`get` and stats need none): lists,
   * search (and the lists, for ties), lookup (and the lists), history. Rejects with the loader's one-line
   * error when the part's files fail their check; the synchronous methods above throw until it resolves.
   */
  ready(part: SnapshotPart): Promise<void>;
  /**
   * Load every part not loaded yet, a slice at a time (the history is checked, and decoded when a route
   * first needs it), check the records' remaining blocks and the files serving never reads, then make Get
   * Server's name index.
   */
  loadAll(): Promise<void>;
  /** Whether every part but the history is loaded. */
  loaded(): boolean;
  /** When each loaded part became ready (`performance.now()`), in the order they did. */
  readyAt(): ReadonlyMap<SnapshotPart, number>;

  /** Release the snapshot's open file; the engine answers nothing afterwards. */
  close(): void;
}
