/**
 * The /v1 gateway: a function from a request to a response, free of any platform. `npm start` and the
 * Vercel functions both call it through `src/http/node-adapter.ts`; tests call it with a Web `Request`.
 *
 * Order of checks (decisions, section 5): route (404, or 405 with `Allow`) → key (401) → daily limit (429)
 * → parameters (400) → the handler (404 for an unknown server). Before all of them, a request target that
 * breaks a URL rule (`request-target.ts`: too long, bytes a URL may not hold, bad percent-encoding, dot
 * segments) is refused with 414 or 400 and never counted: it cannot be routed as sent. `OPTIONS` is answered after the route check
 * with a 204 that needs no key and is not counted; health needs no key and is never counted.
 *
 * The hot path works on JSON text: the engine's `*Json` methods give the records as text, the cache keeps
 * text, and a body is one concatenation. No record is parsed or re-serialised per request, and the gateway
 * itself creates no Web `Request`/`Response` objects unless it is called with one (they cost far more than
 * the rest of a request; see `handle`).
 */
import { DEFAULT_STORE_TIMEOUT_MS } from '../stores/deadline.js';
import type { QueryEngine } from '../query/types.js';
import { type ListParams, ServerPathSchema } from '../schema.js';
import { type KeyRecord, type Store, StoreUnavailableError } from '../stores/types.js';
import { hashesEqual, hashKey, hashPrefix, MAX_PRESENTED_KEY_LENGTH } from '../keys/keys.js';
import { type PlanTable, planTable } from '../keys/plans.js';
import { type CacheOptions, type CachedAnswer, ResponseCache } from './cache.js';
import { createCors } from './cors.js';
import { ApiError, type ErrorCode, errorBody, quote } from './errors.js';
import { MAX_LOGGED_PATH, type RequestLogger } from './log.js';
import { assertNoParams, parseListParams, parseSearchParams } from './params.js';
import { readRequestTarget, type RequestTarget } from './request-target.js';
import {
  counterExpiry,
  decide,
  dailyCounterKey,
  type RateLimitDecision,
  rateLimitedError,
  setRateLimitHeaders,
  uncounted,
} from './rate-limit.js';

/** What the gateway reads of a request: a Web `Request` has these, and so does the Node adapter's view. */
export interface GatewayRequest {
  method: string;
  /** An absolute URL, or a path with its query (`/v1/search?q=x`) as an HTTP request line carries it. */
  url: string;
  headers: { get(name: string): string | null | undefined };
}

/** A response as plain data. `headers` names are lower-case; `body` is null for HEAD, 204 and 304. */
export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export interface GatewayConfig {
  /** The free plan's daily limit (`FREE_DAILY_LIMIT`, default 100). */
  freeDailyLimit: number;
  /** SHA-256 hashes of the `API_KEYS` keys, accepted as free-plan keys. */
  apiKeyHashes?: readonly string[];
  /** Bound on every store call; past it the request is answered 502. Default 1000 ms. */
  storeTimeoutMs?: number;
  cache?: Partial<CacheOptions>;
}

export interface GatewayDeps {
  /** The engine, or a getter for it, so a warm instance can move to a new snapshot between requests. */
  engine: QueryEngine | (() => QueryEngine);
  store: Store;
  config: GatewayConfig;
  /** Clock, epoch milliseconds: day windows, `X-RateLimit-Reset`, cache expiry. Default `Date.now`. */
  now?: () => number;
  /** Receives one line per request. Default: none. */
  log?: RequestLogger;
}

/** The gateway: call it with a Web `Request`, or use `handle` with plain data (the Node adapter does). */
export interface Gateway {
  (request: Request): Promise<Response>;
  handle(request: GatewayRequest): Promise<GatewayResponse>;
  /**
   * The error response for a request the gateway never saw (the Node server refuses a malformed HTTP
   * message before it reaches `handle`): the error body with the same headers as any other error.
   */
  refuse(code: ErrorCode, message: string): GatewayResponse;
  readonly cache: ResponseCache;
}

type RouteName = 'health' | 'stats' | 'list' | 'get' | 'search';

interface Route {
  name: RouteName;
  /** Get Server's two path segments, still percent-encoded. */
  segments?: [string, string];
}

const STATIC_ROUTES: ReadonlyMap<string, Route> = new Map([
  ['/v1/health', { name: 'health' }],
  ['/v1/stats', { name: 'stats' }],
  ['/v1/servers', { name: 'list' }],
  ['/v1/search', { name: 'search' }],
]);
const SERVERS_PREFIX = '/v1/servers/';

const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
const JSON_TYPE = 'application/json; charset=utf-8';
/** Keyed answers: a shared cache must never answer one key's request with another key's response. */
const KEYED_CACHE_CONTROL = 'private';
/** Health and every error: never reuse. */
const NO_STORE = 'no-store';

const ROUTE_LIST =
  'GET /v1/health, /v1/stats, /v1/servers, /v1/servers/{namespace}/{id}, /v1/search?q={query}';

function matchRoute(path: string): Route | undefined {
  const fixed = STATIC_ROUTES.get(path);
  if (fixed !== undefined) return fixed;
  if (!path.startsWith(SERVERS_PREFIX)) return undefined;
  const rest = path.slice(SERVERS_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0 || slash === rest.length - 1 || rest.indexOf('/', slash + 1) !== -1) return undefined;
  return { name: 'get', segments: [rest.slice(0, slash), rest.slice(slash + 1)] };
}

/** The path of a target that was refused, for the log line (the query is never logged). */
function rawPath(url: string): string {
  const question = url.indexOf('?');
  return question === -1 ? url : url.slice(0, question);
}

/** Whether an `If-None-Match` value names `etag` (weak comparison, as RFC 9110 asks for this header). */
function matchesIfNoneMatch(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const candidate of header.split(',')) {
    const tag = candidate.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === opaque) return true;
  }
  return false;
}

/**
 * The gateway's own bound on a store call (the failure policy of decisions section 5): settles with the
 * call's result, or rejects once `timeoutMs` has passed, whatever the store does. Remote stores bound their
 * own calls too; this one holds for any `Store`, including one that never answers. It is a bare timer
 * rather than the stores' `withinDeadline`, which also makes an AbortController: this runs twice a request.
 */
function bounded<T>(operation: () => Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new StoreUnavailableError(`the store did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const settle = (value: T) => {
      clearTimeout(timer);
      resolve(value);
    };
    const fail = (error: unknown) => {
      clearTimeout(timer);
      reject(error);
    };
    try {
      operation().then(settle, fail);
    } catch (error) {
      fail(error);
    }
  });
}

function decodeSegment(name: 'namespace' | 'id', segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    throw new ApiError('invalid_parameter', `Invalid path: ${name} is not valid percent-encoding`);
  }
  // A name has exactly one "/", the one between namespace and id; an encoded one would make a second.
  if (decoded.includes('/')) {
    throw new ApiError(
      'invalid_parameter',
      `Invalid path: ${name} may not contain "/" (%2F); a server name is <namespace>/<id> with exactly one "/"`,
    );
  }
  return decoded;
}

/** Creates the gateway. Expensive things (header strings, plan table, cache) are made here, once. */
export function createGateway(deps: GatewayDeps): Gateway {
  const { store, config } = deps;
  const engineOf = deps.engine;
  const getEngine: () => QueryEngine = typeof engineOf === 'function' ? engineOf : () => engineOf;
  const now = deps.now ?? Date.now;
  const log = deps.log;
  const timeoutMs = config.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  const plans: PlanTable = planTable(config.freeDailyLimit);
  const freeLimit = plans.free.dailyLimit;
  const cache = new ResponseCache(config.cache);
  const cors = createCors();
  const allowOrigin = cors.headers['access-control-allow-origin'] ?? '*';
  const exposeHeaders = cors.headers['access-control-expose-headers'] ?? '';
  const startedAt = new Date(now()).toISOString();
  const staticKeys: KeyRecord[] = (config.apiKeyHashes ?? []).map((hash) => ({
    hash,
    plan: 'free',
    label: 'API_KEYS',
    created_at: startedAt,
  }));

  /** `meta` members that name the snapshot, as JSON text; remade only when the engine changes. */
  let snapshotMetaFor: QueryEngine | undefined;
  let snapshotMeta = '';
  function snapshotMetaOf(engine: QueryEngine): string {
    if (engine !== snapshotMetaFor) {
      snapshotMetaFor = engine;
      snapshotMeta =
        `,"snapshot_id":${JSON.stringify(engine.snapshot.id)}` +
        `,"generated_at":${JSON.stringify(engine.snapshot.generatedAt)}`;
    }
    return snapshotMeta;
  }

  function headersFor(decision: RateLimitDecision, nowMs: number, cacheControl: string, json: boolean) {
    const headers: Record<string, string> = {
      'access-control-allow-origin': allowOrigin,
      'access-control-expose-headers': exposeHeaders,
      'cache-control': cacheControl,
      // Every answer says what it is; a browser must never guess another type from the bytes.
      'x-content-type-options': 'nosniff',
    };
    if (json) headers['content-type'] = JSON_TYPE;
    setRateLimitHeaders(headers, decision, nowMs);
    return headers;
  }

  /** A response with `body`, or for HEAD the same headers (the length included) and no body. */
  function withBody(status: number, headers: Record<string, string>, body: string, head: boolean): GatewayResponse {
    // An explicit length lets Node send the body in one piece instead of chunked encoding.
    headers['content-length'] = String(Buffer.byteLength(body));
    return { status, headers, body: head ? null : body };
  }

  function errorResponse(error: ApiError, decision: RateLimitDecision, nowMs: number, head: boolean) {
    return withBody(error.status, headersFor(decision, nowMs, NO_STORE, true), errorBody(error), head);
  }

  /** A key's record, or an ApiError: 401 for a key that matches nothing, 502 when the store cannot say. */
  async function authenticate(presented: string): Promise<KeyRecord> {
    // Made only when thrown, not on every request.
    const invalid = () => new ApiError('invalid_api_key', 'Invalid API key: X-API-Key does not match an active key');
    if (presented.length > MAX_PRESENTED_KEY_LENGTH) throw invalid();
    const hash = hashKey(presented);
    for (const record of staticKeys) if (hashesEqual(record.hash, hash)) return record;
    let record: KeyRecord | undefined;
    try {
      record = await bounded(() => store.findKey(hash), timeoutMs);
    } catch (error) {
      throw storeUnavailable(error);
    }
    // The store found the record by its hash; compare again in constant time rather than trust the lookup.
    if (record === undefined || !hashesEqual(record.hash, hash)) throw invalid();
    return record;
  }

  /** Last time a store failure was written to stderr: once every 10 s is enough to say why 502s happen. */
  let storeFailureReportedAt = Number.NEGATIVE_INFINITY;

  /** The 502, after telling the operator why (the client's message never carries the backend's error). */
  function storeUnavailable(cause: unknown): ApiError {
    const at = performance.now();
    if (at - storeFailureReportedAt >= 10_000) {
      storeFailureReportedAt = at;
      console.error(`gateway: answering 502, the ${store.kind} store failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
    return new ApiError(
      'store_unavailable',
      'The upstream data store (keys and daily counters) cannot be reached; nothing was served. Try again shortly',
    );
  }

  /** The answer of a keyed route, from the cache or computed (and then cached). */
  function keyedAnswer(route: Route, query: string, engine: QueryEngine, nowMs: number) {
    let normalised: string;
    let compute: () => { data: string; metaTail: string } | undefined;
    switch (route.name) {
      case 'stats':
        assertNoParams(query);
        normalised = 'stats';
        compute = () => ({ data: engine.statsJson(), metaTail: '' });
        break;
      case 'get': {
        const [rawNamespace, rawId] = route.segments ?? ['', ''];
        const namespace = decodeSegment('namespace', rawNamespace);
        const id = decodeSegment('id', rawId);
        assertNoParams(query);
        const path = ServerPathSchema.safeParse({ namespace, id });
        if (!path.success) {
          const problems = path.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`);
          throw new ApiError('invalid_parameter', `Invalid path: ${problems.join('; ')}`);
        }
        const name = `${namespace}/${id}`;
        normalised = `get\n${name.toLowerCase()}`;
        compute = () => {
          const data = engine.getJson(name);
          return data === undefined ? undefined : { data, metaTail: '' };
        };
        const found = lookup(normalised, compute, engine, nowMs);
        if (found !== undefined) return found;
        throw new ApiError(
          'server_not_found',
          `Server ${quote(name, 100)} was not found. Names are <namespace>/<id>; to find a server, search: ` +
            `GET /v1/search?q=${encodeURIComponent(id.slice(0, 40))}`,
        );
      }
      case 'list': {
        const params = parseListParams(query);
        normalised = `list\n${listKey(params)}`;
        compute = () => {
          const page = engine.listJson(params);
          return { data: page.json, metaTail: `,"total":${page.total},"limit":${params.limit},"offset":${params.offset}` };
        };
        break;
      }
      case 'search': {
        const params = parseSearchParams(query);
        normalised = `search\n${JSON.stringify([params.q, params.limit])}`;
        compute = () => {
          const page = engine.searchJson(params.q, params.limit);
          return { data: page.json, metaTail: `,"total":${page.total},"limit":${params.limit},"offset":0` };
        };
        break;
      }
      case 'health':
        throw new Error('health is not a keyed route');
    }
    const answer = lookup(normalised, compute, engine, nowMs);
    if (answer === undefined) throw new Error(`${route.name} produced no answer`);
    return answer;
  }

  /** Cache lookup; on a miss, compute, add the snapshot's meta and the ETag, and keep it. */
  function lookup(
    normalised: string,
    compute: () => { data: string; metaTail: string } | undefined,
    engine: QueryEngine,
    nowMs: number,
  ): { answer: CachedAnswer; cached: boolean } | undefined {
    const key = `${engine.snapshot.id}\n${normalised}`;
    const hit = cache.get(key, nowMs);
    if (hit !== undefined) return { answer: hit, cached: true };
    const computed = compute();
    if (computed === undefined) return undefined;
    const answer: CachedAnswer = {
      etag: `W/"${engine.snapshot.id.slice(0, 12)}-${fnv1a(normalised)}"`,
      data: computed.data,
      metaTail: computed.metaTail + snapshotMetaOf(engine),
    };
    cache.set(key, answer, nowMs);
    return { answer, cached: false };
  }

  async function health(query: string, head: boolean, nowMs: number): Promise<GatewayResponse> {
    const decision = uncounted(freeLimit, nowMs);
    assertNoParams(query);
    const engine = getEngine();
    let storeStatus: 'ok' | 'unavailable' = 'ok';
    try {
      await bounded(() => store.ping(), timeoutMs);
    } catch {
      storeStatus = 'unavailable';
    }
    const data = {
      status: storeStatus === 'ok' ? 'ok' : 'degraded',
      timestamp: new Date(nowMs).toISOString(),
      snapshot: {
        id: engine.snapshot.id,
        generated_at: engine.snapshot.generatedAt,
        record_count: engine.snapshot.recordCount,
      },
      store: { kind: store.kind, status: storeStatus },
    };
    const body = `{"data":${JSON.stringify(data)},"meta":{"cached":false${snapshotMetaOf(engine)}}}`;
    return withBody(200, headersFor(decision, nowMs, NO_STORE, true), body, head);
  }

  async function respond(request: GatewayRequest, nowMs: number, context: LogContext): Promise<GatewayResponse> {
    const method = request.method;
    const head = method === 'HEAD';
    const free = uncounted(freeLimit, nowMs);
    // A target that breaks a URL rule is refused before anything else, never counted (README, "Hostile input").
    let target: RequestTarget;
    try {
      target = readRequestTarget(request.url);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      context.path = rawPath(request.url);
      return errorResponse(error, free, nowMs, head);
    }
    context.path = target.path;
    const route = matchRoute(target.path);
    if (route === undefined) {
      return errorResponse(new ApiError('route_not_found', `No such route. Routes: ${ROUTE_LIST}`), free, nowMs, head);
    }
    if (method === 'OPTIONS') {
      const headers = headersFor(free, nowMs, NO_STORE, false);
      Object.assign(headers, cors.preflightHeaders);
      return { status: 204, headers, body: null };
    }
    if (method !== 'GET' && !head) {
      const error = new ApiError(
        'method_not_allowed',
        `Method ${quote(method, 20)} is not allowed; this route answers ${ALLOWED_METHODS}`,
      );
      const response = errorResponse(error, free, nowMs, false);
      response.headers.allow = ALLOWED_METHODS;
      return response;
    }

    if (route.name === 'health') {
      try {
        return await health(target.query, head, nowMs);
      } catch (error) {
        if (error instanceof ApiError) return errorResponse(error, free, nowMs, head);
        throw error;
      }
    }

    const presented = request.headers.get('x-api-key');
    if (!presented) {
      const error = new ApiError('missing_api_key', 'Missing API key: send your key in the X-API-Key header');
      return errorResponse(error, free, nowMs, head);
    }
    let record: KeyRecord;
    try {
      record = await authenticate(presented);
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error, free, nowMs, head);
      throw error;
    }
    context.key = hashPrefix(record.hash);
    const limit = plans[record.plan].dailyLimit;

    let count: number;
    try {
      const expireAt = counterExpiry(nowMs);
      count = await bounded(() => store.increment(dailyCounterKey(record.hash, nowMs), expireAt), timeoutMs);
    } catch (error) {
      // Nothing is let through uncounted: no count, no answer. The remaining count is unknown, so the
      // headers report the plan's limit, as for any response not tied to a counted request.
      return errorResponse(storeUnavailable(error), uncounted(limit, nowMs), nowMs, head);
    }
    const decision = decide(count, limit, nowMs);
    if (!decision.success) return errorResponse(rateLimitedError(decision, nowMs), decision, nowMs, head);

    let result: { answer: CachedAnswer; cached: boolean };
    try {
      result = keyedAnswer(route, target.query, getEngine(), nowMs);
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error, decision, nowMs, head);
      throw error;
    }
    const { answer, cached } = result;
    context.cached = cached;
    const headers = headersFor(decision, nowMs, KEYED_CACHE_CONTROL, true);
    headers.etag = answer.etag;
    if (matchesIfNoneMatch(request.headers.get('if-none-match'), answer.etag)) {
      delete headers['content-type'];
      return { status: 304, headers, body: null };
    }
    const body = `{"data":${answer.data},"meta":{"cached":${cached}${answer.metaTail}}}`;
    return withBody(200, headers, body, head);
  }

  async function handle(request: GatewayRequest): Promise<GatewayResponse> {
    const started = performance.now();
    const nowMs = now();
    const context: LogContext = { path: '', key: null, cached: false };
    let response: GatewayResponse;
    try {
      response = await respond(request, nowMs, context);
    } catch (error) {
      // A bug, not a client's mistake: answer with the error body rather than drop the connection.
      console.error('gateway: unexpected error', error);
      const body = errorBody(new ApiError('internal_error', 'Internal error'));
      response = withBody(500, headersFor(uncounted(freeLimit, nowMs), nowMs, NO_STORE, true), body, request.method === 'HEAD');
    }
    log?.({
      time: new Date(nowMs).toISOString(),
      method: request.method.slice(0, 20),
      path: context.path.slice(0, MAX_LOGGED_PATH),
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      cached: context.cached,
      key: context.key,
    });
    return response;
  }

  function refuse(code: ErrorCode, message: string): GatewayResponse {
    const nowMs = now();
    return errorResponse(new ApiError(code, message), uncounted(freeLimit, nowMs), nowMs, false);
  }

  const gateway = async (request: Request): Promise<Response> => {
    const reply = await handle({ method: request.method, url: request.url, headers: request.headers });
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
  return Object.assign(gateway, { handle, refuse, cache });
}

interface LogContext {
  path: string;
  key: string | null;
  cached: boolean;
}

/**
 * 32-bit FNV-1a of `text` in base 36: the request part of an ETag. A client revalidates an answer only with
 * the ETag of the same URL, which always normalises to the same text, and the snapshot id beside it changes
 * with the data; so the digest need not be cryptographic, only stable and cheap.
 */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** List parameters as a cache key. Filters match case-insensitively, so their case does not split entries. */
function listKey(params: ListParams): string {
  return JSON.stringify([
    params.limit,
    params.offset,
    params.sort,
    params.order,
    params.min_score ?? null,
    params.flags?.toLowerCase() ?? null,
    params.target?.toLowerCase() ?? null,
    params.namespace?.toLowerCase() ?? null,
  ]);
}
