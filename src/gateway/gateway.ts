/**
 * The /v1 gateway: a function from a request to a response, free of any platform. `npm start` and the
 * Vercel functions both call it through `src/http/node-adapter.ts`; tests call it with a Web `Request`.
 *
 * An ordered pipeline (decisions, section 5): target → route (404, or 405 with `Allow`) → key (401) → daily
 * limit (429) → the route's handler, which checks its parameters (400) and answers (404 for an unknown
 * server). A target that breaks a URL rule (`src/api/request-target.ts`) is refused with 414 or 400 before
 * anything else and never counted. `OPTIONS` is answered after the route check with a 204 that needs no key
 * and is not counted; a route that is not keyed (health) is never counted. Every `ApiError` on the way
 * becomes a response in one place (`respond`'s catch), as hono's `onError` does.
 *
 * A handler's answer comes through the answer path the offline client takes too (`src/api/answer.ts`); from
 * there the hot path works on JSON text: records as their stored bytes, the cache keeps text, and a body is
 * one concatenation. The gateway creates no Web `Request`/`Response` objects unless it is called with one.
 */
import { ApiError, type ErrorCode, quote } from '../api/errors.js';
import { readRequestTarget } from '../api/request-target.js';
import { answerRoute, computeAnswer, dataText, metaText } from '../api/answer.js';
import type { Answer } from '../api/route.js';
import { OperatorError } from '../errors/operator-error.js';
import { isRegistryTarget } from '../api/paths.js';
import type { RegistryPolicy } from '../registry/policy.js';
import { BodyTooLarge, readJsonBody } from '../api/request-body.js';
import { binaryOf, BodyPool, bodyOf } from './record-bodies.js';
import { ROUTES } from '../api/routes.js';
import { hashPrefix } from '../keys/keys.js';
import { planTable } from '../keys/plans.js';
import type { QueryEngine } from '../query/types.js';
import { DEFAULT_STORE_TIMEOUT_MS } from '../stores/deadline.js';
import type { Store } from '../stores/types.js';
import { createAuthenticator } from './auth.js';
import { allowSiteOriginOnly } from './cors.js';
import { type CacheOptions, type CachedAnswer, holdsNoRecord, isRecordIds, ResponseCache } from './cache.js';
import { etagFor, matchesIfNoneMatch } from './etag.js';
import { createLimiter } from './limiter.js';
import { logTime, MAX_LOGGED_PATH, type RequestLogger } from './log.js';
import { type RateLimitDecision, uncounted } from './rate-limit.js';
import { bodyBytes, createResponder, type GatewayResponse, KEYED_CACHE_CONTROL, NO_STORE } from './respond.js';
import { createRouter } from './router.js';
import { createKeyIssuer, DEFAULT_SELF_SERVICE, type SelfServiceConfig } from './self-service.js';
import { createStoreCalls } from './store-calls.js';
import type { Subscriptions } from '../notify/key-subscriptions.js';

export type { GatewayResponse } from './respond.js';

/** What the gateway reads of a request: a Web `Request` has these, and so does the Node adapter's view. */
export interface GatewayRequest {
  method: string;
  /** An absolute URL, or a path with its query (`/v1/search?q=x`) as an HTTP request line carries it. */
  url: string;
  headers: { get(name: string): string | null | undefined };
  /** The body as text, for POST routes; rejects with `BodyTooLarge` past `maxBytes` (see `request-body.ts`). */
  readBody?(maxBytes: number): Promise<string>;
  /** The address of the connection (the Node adapter gives it; a Web Request has none). */
  address?: string;
}

export interface GatewayConfig {
  /** The free plan's daily limit (`FREE_DAILY_LIMIT`, default 100). */
  freeDailyLimit: number;
  /** SHA-256 hashes of the `API_KEYS` keys, accepted as free-plan keys. */
  apiKeyHashes?: readonly string[];
  /** Bound on every store call; past it the request is answered 502. Default 1000 ms. */
  storeTimeoutMs?: number;
  cache?: Partial<CacheOptions>;
  /** Get Access (`POST /v1/keys`): on or off, keys per address and day, whether to trust X-Forwarded-For. */
  selfService?: Partial<SelfServiceConfig>;
  /** Which servers the registry feed (`/v0.1`) holds (`REGISTRY_*` settings); default: every one. */
  registryPolicy?: RegistryPolicy;
  /** Days after its newest score at which health reports the data stale (`STALE_AFTER_DAYS`; default 3). */
  staleAfterDays?: number;
  /** The one origin besides the API's own whose pages may call Get Access (`SITE_ORIGIN`); default none. */
  siteOrigin?: string;
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
  /** Webhook subscriptions (`src/notify/`); undefined when not turned on (their routes answer 503). */
  webhooks?: Subscriptions;
  /** Counts the identifiers lookups and checks ask about that the snapshot does not know; none when off. */
  countUnknown?: (identifiers: readonly string[], nowMs: number) => void;
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

/** The path of a target, for the log line even when it is refused (the query is never logged). */
function rawPath(url: string): string {
  const question = url.indexOf('?');
  return question === -1 ? url : url.slice(0, question);
}

interface LogContext {
  path: string;
  key: string | null;
  cached: boolean;
}

/** Creates the gateway. Expensive things (header strings, plan table, router, cache) are made here, once. */
export function createGateway(deps: GatewayDeps): Gateway {
  const { config } = deps;
  const engineOf = deps.engine;
  const getEngine: () => QueryEngine = typeof engineOf === 'function' ? engineOf : () => engineOf;
  const now = deps.now ?? Date.now;
  const plans = planTable(config.freeDailyLimit);
  const freeLimit = plans.free.dailyLimit;
  const cache = new ResponseCache(config.cache);
  const pool = new BodyPool();
  const router = createRouter(ROUTES);
  const out = createResponder();
  const calls = createStoreCalls(deps.store, config.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS);
  const authenticate = createAuthenticator(config.apiKeyHashes ?? [], calls, new Date(now()).toISOString());
  const count = createLimiter(plans, calls);
  const issue = createKeyIssuer({ ...DEFAULT_SELF_SERVICE, ...config.selfService }, deps.store, calls);

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

  /**
   * A cached answer: from the cache, or computed, given the snapshot's meta and an ETag, and kept, with its
   * `data`: text, or records (their ids, or their bytes once asked for again; see cache.ts).
   */
  function cachedAnswer(answer: Extract<Answer, { kind: 'cached' }>, engine: QueryEngine, nowMs: number) {
    const key = `${engine.snapshot.id}\n${answer.key}`;
    const hit = cache.get(key, nowMs);
    if (hit !== undefined) {
      if (!isRecordIds(hit.data)) return { answer: hit, data: hit.data, cached: true };
      const data = { binary: engine.recordsBinary(hit.data) };
      cache.keepData(key, data);
      return { answer: hit, data, cached: true };
    }
    const computed = computeAnswer(answer);
    const metaTail = metaText(computed.meta) + snapshotMetaOf(engine);
    const kept: CachedAnswer = {
      etag: etagFor(engine.snapshot.id, answer.key),
      data: dataText(computed.data),
      // An answer of records is written as a binary string: its meta too, made so once here.
      metaTail: computed.data.kind === 'records' ? binaryOf(metaTail) : metaTail,
    };
    cache.set(key, kept, nowMs);
    return { answer: kept, data: kept.data, cached: false };
  }

  /** The pipeline. `state.decision` is whatever rate-limit headers an answer at that point carries. */
  async function pipeline(
    request: GatewayRequest,
    nowMs: number,
    context: LogContext,
    state: { decision: RateLimitDecision },
  ): Promise<GatewayResponse> {
    const head = request.method === 'HEAD';
    context.path = rawPath(request.url);
    const target = readRequestTarget(request.url);
    context.path = target.path;
    const match = router.match(target.path);
    if (match === undefined) throw new ApiError('route_not_found', `No such route. Routes: ${router.listing}`);
    const { pathParams, allowed } = match;
    const siteOnly = match.routes.some((row) => row.method === 'POST' && !row.keyed);
    if (request.method === 'OPTIONS') {
      const preflight = out.preflight(state.decision, nowMs, allowed);
      if (siteOnly) allowSiteOriginOnly(preflight.headers, request.headers.get('origin'), config.siteOrigin);
      return preflight;
    }
    const method = head ? 'GET' : request.method;
    const route = match.routes.length === 1 ? match.route : match.routes.find((r) => (r.method ?? 'GET') === method);
    if (route === undefined || method !== (route.method ?? 'GET')) {
      throw new ApiError(
        'method_not_allowed',
        `Method ${quote(request.method, 20)} is not allowed; this route answers ${allowed}`,
        { allow: allowed },
      );
    }
    let body: unknown;
    let keyHash: string | undefined;
    if (!route.keyed && route.body !== undefined) {
      // A keyless POST (Get Access): the body is read with the same bounds, and nothing is counted.
      const read = await readJsonBody(request, route.body, getEngine);
      if (!read.ok) throw read.error;
      body = read.body;
    }
    if (route.keyed) {
      const record = await authenticate(request.headers.get('x-api-key'));
      context.key = hashPrefix(record.hash);
      keyHash = record.hash;
      // A body is read once the key is known; a valid one counts as its cost, an invalid one as one request.
      const read = route.body === undefined ? undefined : await readJsonBody(request, route.body, getEngine);
      const { decision, refusal } = await count(record, nowMs, read?.ok ? read.cost : 1);
      state.decision = decision;
      if (refusal !== undefined) throw refusal;
      if (read !== undefined && !read.ok) throw read.error;
      if (read?.ok) body = read.body;
    }
    const engine = getEngine();
    const issueKey = async (label: string) => {
      const issued = await issue(
        label,
        { address: request.address, forwardedFor: request.headers.get('x-forwarded-for') },
        nowMs,
      );
      return {
        key: issued.key,
        plan: issued.record.plan,
        dailyLimit: plans[issued.record.plan].dailyLimit,
        label: issued.record.label,
        createdAt: issued.record.created_at,
      };
    };
    const answer = await answerRoute(route, {
      engine,
      query: target.query,
      pathParams,
      nowMs,
      store: calls,
      body,
      issueKey,
      ...(keyHash === undefined ? {} : { keyHash }),
      ...(deps.webhooks === undefined ? {} : { webhooks: deps.webhooks }),
      ...(config.registryPolicy === undefined ? {} : { registryPolicy: config.registryPolicy }),
      ...(config.staleAfterDays === undefined ? {} : { staleAfterDays: config.staleAfterDays }),
    });
    if (answer.kind === 'document') {
      const headers = out.headers(state.decision, nowMs, answer.cacheControl, false);
      Object.assign(headers, answer.headers, { 'content-type': answer.contentType });
      headers.etag = etagFor(engine.snapshot.id, `${answer.key}\n${answer.status}`);
      if (matchesIfNoneMatch(request.headers.get('if-none-match'), headers.etag)) {
        delete headers['content-type'];
        return { status: 304, headers, body: null };
      }
      return out.withBody(answer.status, headers, answer.body, head);
    }
    if (answer.kind === 'empty')
      return { status: 204, headers: out.headers(state.decision, nowMs, NO_STORE, false), body: null };
    if (answer.kind === 'live') {
      if (answer.unknown !== undefined) deps.countUnknown?.(answer.unknown, nowMs);
      const body = `{"data":${JSON.stringify(answer.value)},"meta":{"cached":false${snapshotMetaOf(engine)}}}`;
      const headers = out.headers(state.decision, nowMs, NO_STORE, true);
      if (siteOnly) allowSiteOriginOnly(headers, request.headers.get('origin'), config.siteOrigin);
      return out.withBody(answer.status ?? 200, headers, body, head);
    }
    const { answer: kept, data, cached } = cachedAnswer(answer, engine, nowMs);
    context.cached = cached;
    if (answer.unknown !== undefined && holdsNoRecord(data)) deps.countUnknown?.([answer.unknown], nowMs);
    const headers = out.headers(state.decision, nowMs, KEYED_CACHE_CONTROL, true);
    headers.etag = kept.etag;
    if (matchesIfNoneMatch(request.headers.get('if-none-match'), kept.etag)) {
      delete headers['content-type'];
      return { status: 304, headers, body: null };
    }
    const {
      body: envelope,
      binary,
      release,
    } = bodyOf(engine, pool, data, '{"data":', `,"meta":{"cached":${cached}${kept.metaTail}}}`);
    const response = out.withBody(200, headers, envelope, head, binary);
    // HEAD writes no body: the buffer goes back now.
    if (release !== undefined) {
      if (response.body === null) release();
      else response.release = release;
    }
    return response;
  }

  async function handle(request: GatewayRequest): Promise<GatewayResponse> {
    const started = performance.now();
    const nowMs = now();
    const context: LogContext = { path: '', key: null, cached: false };
    const state = { decision: uncounted(freeLimit, nowMs) };
    const head = request.method === 'HEAD';
    let response: GatewayResponse;
    try {
      response = await pipeline(request, nowMs, context, state);
    } catch (error) {
      if (error instanceof ApiError) {
        // 405 is answered with a body even to HEAD: the method is not one the route knows.
        response = out.error(
          error,
          state.decision,
          nowMs,
          head && error.code !== 'method_not_allowed',
          isRegistryTarget(request.url),
        );
      } else {
        // A bug, not a client's mistake: answer with the error body rather than drop the connection. A part
        // of the snapshot that failed its check is the operator's to fix: its one line, no stack.
        if (error instanceof OperatorError) console.error(`gateway: answering 500, ${error.message}`);
        else console.error('gateway: unexpected error', error);
        const internal = new ApiError('internal_error', 'Internal error');
        response = out.error(internal, uncounted(freeLimit, nowMs), nowMs, head);
      }
    }
    deps.log?.({
      time: logTime(nowMs),
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
    return out.error(new ApiError(code, message), uncounted(freeLimit, nowMs), nowMs, false);
  }

  const gateway = async (request: Request): Promise<Response> => {
    const readBody = async (maxBytes: number) => {
      const text = await request.text();
      if (Buffer.byteLength(text) > maxBytes) throw new BodyTooLarge();
      return text;
    };
    const reply = await handle({ method: request.method, url: request.url, headers: request.headers, readBody });
    // Bytes are copied for the Response, so a lent buffer goes back at once.
    const body =
      reply.body === null || (typeof reply.body === 'string' && reply.binary !== true) ? reply.body : bodyBytes(reply);
    return new Response(body, { status: reply.status, headers: reply.headers });
  };
  return Object.assign(gateway, { handle, refuse, cache });
}
