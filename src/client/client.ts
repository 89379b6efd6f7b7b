/**
 * A small HTTP client for the /v1 API, as the MCP tools need it: one method per endpoint, every call bounded
 * by a timeout, every answer validated with the API's own envelope schemas (`src/api/envelope.ts`), and every failure one
 * `TrustApiError` that says what went wrong in terms a caller can act on (status, code, reset time, URL).
 */
import * as z from 'zod';
import {
  CheckResponseSchema,
  ErrorBodySchema,
  LookupResponseSchema,
  SearchResponseSchema,
  ServerListResponseSchema,
  ServerResponseSchema,
  ServerToolsResponseSchema,
  StatsResponseSchema,
} from '../api/envelope.js';
import { fillPath, ROUTE_PATHS, type RouteId } from '../api/paths.js';
import { splitName } from '../model/schema.js';
import type { TrustSource } from './trust-source.js';

export type { CheckRequestInput, RecordPage } from './trust-source.js';

/** The path of route `id` below the client's base URL (which ends in `/v1`), parameters filled in. */
function apiPath(id: RouteId, values: Record<string, string> = {}): string {
  return fillPath(ROUTE_PATHS[id], values).replace(/^\/v1/, '');
}

/**
 * Why a call failed:
 * - `http`: the API answered with its error body (`status`, `code`, `message`);
 * - `network`: nothing answered at `url` (refused, DNS, reset);
 * - `timeout`: no answer within the bound;
 * - `invalid_response`: something answered, but not with the /v1 API's JSON.
 */
export type TrustApiErrorKind = 'http' | 'network' | 'timeout' | 'invalid_response';

/** A failed API call. The message never contains the API key. */
export class TrustApiError extends Error {
  override readonly name = 'TrustApiError';
  constructor(
    readonly kind: TrustApiErrorKind,
    message: string,
    readonly details: {
      /** The URL that was requested, without credentials. */
      url: string;
      status?: number;
      code?: string;
      /** From `Retry-After`: whole seconds until the daily limit resets (429 only). */
      retryAfterSeconds?: number;
      /** From `X-RateLimit-Reset`: epoch seconds of the next reset. */
      resetEpochSeconds?: number;
    },
  ) {
    super(message);
  }
}

export interface TrustApiClientOptions {
  /** Base URL ending in `/v1`, e.g. `http://127.0.0.1:3000/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Bound on one call, in milliseconds. */
  timeoutMs: number;
  /** The `fetch` to use; default the global one. */
  fetch?: typeof fetch;
}

/** The live source: the API over HTTP. */
export interface TrustApiClient extends TrustSource {
  /** The API's base URL, without credentials (for messages). */
  readonly baseUrl: string;
}

/** A URL fit for a message: user name and password (if anyone put them in TRUST_API_URL) removed. */
export function displayUrl(url: string | URL): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

function integerHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  return value !== null && /^\d{1,12}$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** Query string of the defined values of `params`, in the schema's own key order. */
export function queryOf(params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, String(value));
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** Creates the client. Nothing is contacted until the first call. */
export function createTrustApiClient(options: TrustApiClientOptions): TrustApiClient {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const shownBase = displayUrl(base);

  const get = <T>(pathAndQuery: string, schema: z.ZodType<T>) => call(pathAndQuery, schema);

  async function call<T>(pathAndQuery: string, schema: z.ZodType<T>, requestBody?: unknown): Promise<T> {
    const url = `${base}${pathAndQuery}`;
    const shown = displayUrl(url);
    let response: Response;
    let text: string;
    try {
      // One signal bounds the whole exchange, body included: a server that sends headers and then stalls
      // must not hold the tool call open.
      const signal = AbortSignal.timeout(options.timeoutMs);
      const headers: Record<string, string> = { 'X-API-Key': options.apiKey, Accept: 'application/json' };
      if (requestBody !== undefined) headers['Content-Type'] = 'application/json';
      response = await doFetch(url, {
        method: requestBody === undefined ? 'GET' : 'POST',
        headers,
        signal,
        ...(requestBody === undefined ? {} : { body: JSON.stringify(requestBody) }),
      });
      text = await response.text();
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        throw new TrustApiError('timeout', `No answer from ${shown} within ${options.timeoutMs} ms`, { url: shown });
      }
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
      const reason = cause ?? (error instanceof Error ? error.message : String(error));
      throw new TrustApiError('network', `Could not reach ${shown}: ${reason}`, { url: shown });
    }

    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new TrustApiError('invalid_response', `${shown} answered ${response.status} with a body that is not JSON`, {
        url: shown,
        status: response.status,
      });
    }

    if (!response.ok) {
      const parsed = ErrorBodySchema.safeParse(body);
      if (!parsed.success) {
        throw new TrustApiError(
          'invalid_response',
          `${shown} answered ${response.status} without the API's error body`,
          { url: shown, status: response.status },
        );
      }
      throw new TrustApiError('http', parsed.data.error.message, {
        url: shown,
        status: response.status,
        code: parsed.data.error.code,
        retryAfterSeconds: integerHeader(response.headers, 'retry-after'),
        resetEpochSeconds: integerHeader(response.headers, 'x-ratelimit-reset'),
      });
    }

    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new TrustApiError(
        'invalid_response',
        `${shown} answered with JSON that is not the /v1 API's: ${z.prettifyError(parsed.error)}`,
        { url: shown, status: response.status },
      );
    }
    return parsed.data;
  }

  return {
    baseUrl: shownBase,
    origin: { kind: 'live', url: shownBase },
    close() {},

    async getServer(name) {
      // The tool's input schema has already checked the name; this guards other callers (and `fillPath`
      // refuses a part that is a dot segment, `../stats`).
      if (name.indexOf('/') <= 0) throw new RangeError('a server name is <namespace>/<id>');
      return (await get(apiPath('get', splitName(name)), ServerResponseSchema)).data;
    },

    async tools(name) {
      if (name.indexOf('/') <= 0) throw new RangeError('a server name is <namespace>/<id>');
      return (await get(apiPath('tools', splitName(name)), ServerToolsResponseSchema)).data;
    },

    async search(params) {
      const { data, meta } = await get(
        `${apiPath('search')}${queryOf({
          q: params.q,
          limit: params.limit,
          offset: params.offset === 0 ? undefined : params.offset,
          in: params.in === 'name' ? undefined : params.in,
        })}`,
        SearchResponseSchema,
      );
      return { items: data, total: meta.total, limit: meta.limit, offset: meta.offset };
    },

    async list(params) {
      const { data, meta } = await get(`${apiPath('list')}${queryOf({ ...params })}`, ServerListResponseSchema);
      return { items: data, total: meta.total, limit: meta.limit, offset: meta.offset };
    },

    async stats() {
      return (await get(apiPath('stats'), StatsResponseSchema)).data;
    },

    async lookup(by) {
      const { data, meta } = await get(`${apiPath('lookup')}${queryOf({ ...by })}`, LookupResponseSchema);
      return { items: data, total: meta.total, limit: data.length, offset: 0 };
    },

    async check(request) {
      return (await call(apiPath('check'), CheckResponseSchema, request)).data;
    },
  };
}
