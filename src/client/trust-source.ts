/**
 * Where the MCP tools and the CLI check get trust records and verdicts: one interface, two implementations.
 * The live one (`client.ts`) asks a deployment of the API over HTTP; the embedded one (`embedded.ts`) answers
 * in process from the snapshot shipped inside the package, through the same route handlers and query engine
 * the service runs, with no network and no key. `open-source.ts` picks one from the environment.
 */
import type { z } from 'zod';
import type { CheckAnswer, CheckRequestSchema } from '../model/check.js';
import type { ListParams, SearchParams, ServerRecord, Stats } from '../model/schema.js';

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
      /** When the shipped snapshot was built, which is when its scores were made (ISO 8601 UTC). */
      scoredAt: string;
      snapshotId: string;
    };

/** The API's operations, as the MCP tools and the CLI use them. Failures are `TrustApiError`s. */
export interface TrustSource {
  readonly origin: SourceOrigin;
  getServer(name: string): Promise<ServerRecord>;
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
 * shipped scores for today's; undefined for the live API.
 */
export function offlineNotice(origin: SourceOrigin): string | undefined {
  if (origin.kind === 'live') return undefined;
  return `offline data, scored ${origin.scoredAt.slice(0, 10)}; set TRUST_API_URL and TRUST_API_KEY for live scores`;
}
