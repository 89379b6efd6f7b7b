/**
 * Where the MCP tools and the CLI check get trust records and verdicts: one interface, two implementations.
 * The live one (`client.ts`) asks a deployment of the API over HTTP; the embedded one (`embedded.ts`) answers
 * in process from the snapshot shipped inside the package, through the same route handlers and query engine
 * the service runs, with no network and no key. `open-source.ts` picks one from the environment.
 */
import type { z } from 'zod';
import type { CheckAnswer, CheckRequestSchema } from '../model/check.js';
import { dataAge } from '../format/snapshot-bundle.js';
import type { ListParams, SearchParams, ServerRecord, Stats } from '../model/schema.js';
import type { ServerToolsDataSchema } from '../api/envelope.js';

/** The tools pinned for a server, as Server Tools answers them (none, with the reason, when there are none). */
export type ServerToolsData = z.infer<typeof ServerToolsDataSchema>;

/** One page of records, as List Servers and Search answer it. */
export interface RecordPage {
  items: ServerRecord[];
  total: number;
  limit: number;
  offset: number;
}

/** The body of `POST /v1/check` as a caller writes it (the policy's members all optional). */
export type CheckRequestInput = z.input<typeof CheckRequestSchema>;

/** Where the answers come from: a live API (its URL, without credentials) or the embedded snapshot. */
export type SourceOrigin =
  | { kind: 'live'; url: string }
  | {
      kind: 'embedded';
      /** The newest `scored_at` of the snapshot's records: how old its data is (ISO 8601 UTC). */
      scoredAt: string;
      snapshotId: string;
      /** The snapshot packed in the package, or a newer one `mcp-trust-score update` installed in the cache. */
      held?: 'packed' | 'cached';
      /** What happened on the way to it, said with the data's age (an update that failed, a cache not used). */
      note?: string;
    };

/** The API's operations, as the MCP tools and the CLI use them. Failures are `TrustApiError`s. */
export interface TrustSource {
  readonly origin: SourceOrigin;
  getServer(name: string): Promise<ServerRecord>;
  /** The tools pinned for the server (`GET /v1/servers/{namespace}/{id}/tools`). */
  tools(name: string): Promise<ServerToolsData>;
  /** Search; `offset` and `in` default to 0 and `name`. */
  search(params: Pick<SearchParams, 'q'> & Partial<SearchParams>): Promise<RecordPage>;
  list(params: ListParams): Promise<RecordPage>;
  stats(): Promise<Stats>;
  /** The servers a package (`npm:@scope/pkg`) or a remote URL belongs to, most trusted first. */
  lookup(by: { package: string } | { url: string } | { repo: string }): Promise<RecordPage>;
  /** One policy verdict on many servers (`POST /v1/check`); live, each item counts as one request. */
  check(request: CheckRequestInput): Promise<CheckAnswer>;
  /** Releases what the source holds (the embedded snapshot's files); the live one holds nothing. */
  close(): void;
}

/**
 * The sentence every report and tool text carries when the answers are offline, so nobody mistakes the
 * held scores for today's: their date and age, and where they came from; undefined for the live API.
 */
export function offlineNotice(origin: SourceOrigin, nowMs = Date.now()): string | undefined {
  if (origin.kind === 'live') return undefined;
  const { date, days } = dataAge(origin.scoredAt, nowMs);
  const from = origin.held === 'cached' ? ', from mcp-trust-score update' : '';
  const note = origin.note === undefined ? '' : `; ${origin.note}`;
  return (
    `offline data, scored ${date} (${days === 1 ? '1 day' : `${days} days`} old${from})${note}; ` +
    'set TRUST_API_URL and TRUST_API_KEY for live scores'
  );
}
