/**
 * What a route is: one row of the route table (`routes.ts`). A row says where the route lives, whether it
 * needs a key (and so is counted), how it answers and how the OpenAPI document describes it. The gateway,
 * the OpenAPI generator, the Vercel files and the MCP client all read these rows; none keeps its own list.
 */
import type { z } from 'zod';
import type { QueryEngine, SnapshotPart } from '../query/types.js';
import type { RegistryPolicy } from '../registry/policy.js';
import type { ApiError } from './errors.js';
import type { SchemaComponentName } from './envelope.js';
import type { RouteId } from './paths.js';
import type { Subscriptions } from '../notify/key-subscriptions.js';

/** What a handler gets: the engine of the snapshot being served and the request's parts, still raw. */
export interface HandlerContext {
  engine: QueryEngine;
  /** The query string, without `?` (not yet validated: the handler parses it with its schema). */
  query: string;
  /** The path's `{name}` segments, still percent-encoded. */
  pathParams: Readonly<Record<string, string>>;
  nowMs: number;
  /** The request body, parsed and validated with the route's `body.schema()` (POST routes only). */
  body?: unknown;
  /** Issue a free-plan key to the client (Get Access); limits and the on/off setting are the gateway's. */
  issueKey(label: string): Promise<{ key: string; plan: string; dailyLimit: number; label: string; createdAt: string }>;
  /** The counter store as health reports it: its kind, and whether it answers within its bound. */
  store: { kind: 'memory' | 'redis' | 'upstash'; state(): Promise<'ok' | 'unavailable' | 'data_lost'> };
  /** Which servers the registry feed (`/v0.1`) holds: the deployment's policy (default: all of them). */
  registryPolicy?: RegistryPolicy;
  /** Days after its newest score at which health calls the data stale (`STALE_AFTER_DAYS`; default 3). */
  staleAfterDays?: number;
  /** The SHA-256 of the request's key (keyed routes), which owns what the request makes (webhooks). */
  keyHash?: string;
  /** Webhook subscriptions; undefined when the deployment has not turned them on (`WEBHOOK_SECRETS_KEY`). */
  webhooks?: Subscriptions;
}

/**
 * A computed answer, typed: its `data` and the `meta` members it adds. The gateway serialises it (and may
 * keep it in its response cache first); the offline client reads it as values (`src/api/answer.ts`).
 */
export interface Computed {
  data: AnswerData;
  meta: AnswerMeta;
}

/**
 * An answer's `data`: the snapshot's records it is made of (one record's id, answered as an object, or a
 * page's ids in order: the gateway makes their text from the stored bytes, and may keep the ids rather than
 * the text); JSON text the engine keeps (the statistics, a history, a change list); or a value the handler
 * made (a server's tools, an explanation), serialised by the gateway with `JSON.stringify`. A value may hold
 * the snapshot's own objects (a server's pinned tools): whoever reads it reads it, never changes it.
 */
export type AnswerData =
  { kind: 'records'; ids: RecordIds } | { kind: 'json'; text: string } | { kind: 'value'; value: unknown };

/**
 * The `meta` members an answer adds after `cached` and before the snapshot's, in this order: a page's counts,
 * and the snapshot a change list is since.
 */
export interface AnswerMeta {
  total?: number;
  limit?: number;
  offset?: number;
  since?: string;
}

/** Records of the snapshot: one record (its id, answered as an object) or a page (ids, answered as an array). */
export type RecordIds = number | readonly number[];

/**
 * How a handler answers:
 * - `cached`: an answer that depends only on the snapshot and `key` (the normalised request), so the gateway
 *   may serve it from the response cache, with an ETag; `compute` gives undefined when there is nothing to
 *   answer, and then `missing` is the error (Get Server's 404).
 * - `live`: an answer made now and never cached (health).
 *
 * A lookup or check names the identifiers the snapshot did not know in `unknown`; the gateway counts them
 * when `UNKNOWN_IDENTIFIER_COUNTING` is on (`src/gateway/unknown-counter.ts`).
 */
export type Answer =
  | {
      kind: 'cached';
      key: string;
      compute: () => Computed | undefined;
      missing?: () => ApiError;
      /** The identifier the request names, as it is counted; counted when the answer holds no record. */
      unknown?: string;
    }
  /**
   * `value`: the `data` member, serialised by the gateway as it answers. `unknown`: identifiers the request
   * names that the snapshot does not know, as they are counted.
   */
  | { kind: 'live'; value: unknown; status?: number; unknown?: readonly string[] }
  /** Nothing to say: 204 with no body (a deletion). */
  | { kind: 'empty' }
  | PublicDocument;

/**
 * A keyless document that is not the JSON envelope (a badge): public data only, cacheable by anyone for a
 * while (`cacheControl`), with an ETag made from the snapshot and `key`.
 */
export interface PublicDocument {
  kind: 'document';
  key: string;
  status: number;
  contentType: string;
  cacheControl: string;
  body: string;
  headers?: Readonly<Record<string, string>>;
}

export type Handler = (context: HandlerContext) => Answer | Promise<Answer>;

/** The documentation of a set of parameters: their schema, and one description per member. */
export interface ParameterDoc {
  schema: z.ZodObject;
  descriptions: Readonly<Record<string, string>>;
}

/** How the OpenAPI document describes a route's GET operation. */
export interface OperationDoc {
  operationId: string;
  summary: string;
  description: string;
  tag: 'Service' | 'Servers' | 'Registry' | 'Webhooks';
  /** The component of the success body. */
  body: SchemaComponentName;
  query?: ParameterDoc;
  path?: ParameterDoc;
  /** Whether the route answers 404 for something it cannot find (Get Server's unknown name). */
  notFound?: boolean;
  /** The status of a success when it is not 200 (Get Access creates: 201; a deletion: 204, no body). */
  successStatus?: 201 | 204;
  /** Error answers a route gives besides the usual ones (Get Access: 403, 429, 502; webhooks: 503). */
  extraErrors?: readonly ('Forbidden' | 'TooManyRequests' | 'BadGateway' | 'ServiceUnavailable')[];
  /** A keyed GET answered live, never cached (so no ETag and no 304): webhooks. */
  live?: true;
  /** A route that answers a document other than JSON (a badge): its media type. */
  media?: 'image/svg+xml' | 'application/atom+xml';
  /** A route of the MCP registry API (`/v0.1`): public JSON in the registry document's shapes. */
  registry?: true;
}

/** A route that takes a JSON body: how to validate it, and how many requests it counts as. */
export interface BodySpec {
  /**
   * The body's schema, loaded on the route's first request (and then kept by the module loader): a body
   * schema is hundreds of zod schemas and the modules behind them, which no start before the first answer
   * should build (`test/start-path.test.ts`).
   */
  schema(): Promise<z.ZodType>;
  /** How many requests a valid body counts as against the key's daily limit (all or nothing). */
  cost(body: unknown): number;
  /**
   * What the served snapshot refuses in a body the schema accepts (a policy's unknown flag), as the text after
   * "Invalid body: "; undefined when it is fine. A refused body is an invalid one (400, counted as one request).
   */
  refuse?(body: unknown, engine: QueryEngine): string | undefined;
}

export interface Route {
  id: RouteId;
  /**
   * The one method the route answers besides HEAD and OPTIONS (GET routes also answer HEAD). Default GET.
   * Routes of one path with different methods are separate rows (Webhooks: GET and POST `/v1/webhooks`).
   */
  method?: 'GET' | 'POST' | 'DELETE';
  /** POST routes: the JSON body. */
  body?: BodySpec;
  /** The OpenAPI path template (`/v1/servers/{namespace}/{id}`), from `ROUTE_PATHS`. */
  path: string;
  /** Needs `X-API-Key`; every request with a valid key counts against its daily limit. */
  keyed: boolean;
  /** How the 404's list of routes names it, when it differs from `path` (Search's required `q`). */
  listedAs?: string;
  /** The part of the snapshot the handler reads besides Get Server's (awaited before it runs). */
  needs?: SnapshotPart;
  handler: Handler;
  doc: OperationDoc;
}
