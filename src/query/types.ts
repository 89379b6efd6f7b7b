/**
 * What the rest of the service may ask of a loaded snapshot. The gateway, the MCP tools' tests and the
 * benchmarks depend on this interface only; `src/query/engine.ts` implements it over the loaded artifacts.
 */
import type { ListParams, ServerRecord, Stats } from '../model/schema.js';

/** One page of results: the records of the page and how many matched in all. */
export interface Page<T> {
  items: T[];
  total: number;
}

/** A page as JSON text (`json` is the text of the array of records), for responses built without a parse. */
export interface JsonPage {
  json: string;
  total: number;
}

export interface SnapshotInfo {
  /** Hash of the snapshot's content: the same dataset always gives the same id. */
  id: string;
  /** When the snapshot was built (ISO 8601 UTC). */
  generatedAt: string;
  recordCount: number;
}

export interface QueryEngine {
  readonly snapshot: SnapshotInfo;
  stats(): Stats;
  /** The record whose name equals `name` case-insensitively, with its stored spelling. */
  get(name: string): ServerRecord | undefined;
  /** Filter, sort (ties by name ascending) and page, with the semantics of decisions §3 and §6. */
  list(params: ListParams): Page<ServerRecord>;
  /** Name search with the semantics of decisions §4; `q` is trimmed and at least 2 characters. */
  search(q: string, limit: number): Page<ServerRecord>;

  /** The same answers as JSON text: the gateway's hot path, which never parses and re-serializes a record. */
  statsJson(): string;
  getJson(name: string): string | undefined;
  listJson(params: ListParams): JsonPage;
  searchJson(q: string, limit: number): JsonPage;

  /**
   * Parse now what lists and searches need (otherwise parsed on their first use, so that a cold instance
   * answers Get Server sooner). A server calls it once it listens.
   */
  warm(): void;

  /** Release the snapshot's open file; the engine answers nothing afterwards. */
  close(): void;
}
