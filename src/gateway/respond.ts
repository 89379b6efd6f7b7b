/**
 * How the gateway writes a response: the headers every answer carries (CORS, `nosniff`, the rate-limit
 * headers, `Cache-Control`), an explicit length, no body for HEAD; and the one place an `ApiError` becomes a
 * response.
 */
import { type ApiError, errorBody } from '../api/errors.js';
import { createCors } from './cors.js';
import { type RateLimitDecision, setRateLimitHeaders } from './rate-limit.js';

/**
 * A response as plain data. `headers` names are lower-case; `body` is null for HEAD, 204 and 304. A body
 * made of the snapshot's records is bytes: a buffer lent by the gateway (`record-bodies.ts`), which whoever
 * writes it gives back with `release` once written (or never, when the write was cut short); or, for an
 * answer kept by the response cache, a `binary` string of one character per byte (the records' UTF-8 as
 * stored), to be written as `latin1`. Any other body is text, written as UTF-8.
 */
export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer | null;
  binary?: boolean;
  release?: () => void;
}

/**
 * The bytes `reply`'s body writes (text as UTF-8, a binary string as latin1), a copy; a lent buffer is given
 * back. For whatever does not write to a Node socket: the Web `Response`, tests, the in-process bench.
 */
export function bodyBytes(reply: GatewayResponse): Uint8Array<ArrayBuffer> {
  if (reply.body === null) return new Uint8Array(0);
  if (typeof reply.body === 'string')
    return new Uint8Array(Buffer.from(reply.body, reply.binary === true ? 'latin1' : 'utf8'));
  const bytes = Uint8Array.from(reply.body);
  reply.release?.();
  return bytes;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** Keyed answers: a shared cache must never answer one key's request with another key's response. */
export const KEYED_CACHE_CONTROL = 'private';
/** Health and every error: never reuse. */
export const NO_STORE = 'no-store';

export interface Responder {
  headers(decision: RateLimitDecision, nowMs: number, cacheControl: string, json: boolean): Record<string, string>;
  /** A response with `body`, or for HEAD the same headers (the length included) and no body. */
  withBody(
    status: number,
    headers: Record<string, string>,
    body: string | Buffer,
    head: boolean,
    binary?: boolean,
  ): GatewayResponse;
  /**
   * The error body, with the usual headers and any the error asks for (405's `Allow`). `registry`: in the
   * MCP registry document's shape, `{"error": "<message>"}`, for the `/v0.1` routes.
   */
  error(
    error: ApiError,
    decision: RateLimitDecision,
    nowMs: number,
    head: boolean,
    registry?: boolean,
  ): GatewayResponse;
  /** The 204 of a CORS preflight for a route answering `methods`. */
  preflight(decision: RateLimitDecision, nowMs: number, methods: string): GatewayResponse;
}

export function createResponder(): Responder {
  const cors = createCors();
  const allowOrigin = cors.headers['access-control-allow-origin'] ?? '*';
  const exposeHeaders = cors.headers['access-control-expose-headers'] ?? '';

  function headers(decision: RateLimitDecision, nowMs: number, cacheControl: string, json: boolean) {
    const out: Record<string, string> = {
      'access-control-allow-origin': allowOrigin,
      'access-control-expose-headers': exposeHeaders,
      'cache-control': cacheControl,
      // Every answer says what it is; a browser must never guess another type from the bytes.
      'x-content-type-options': 'nosniff',
    };
    if (json) out['content-type'] = JSON_TYPE;
    setRateLimitHeaders(out, decision, nowMs);
    return out;
  }

  function withBody(
    status: number,
    out: Record<string, string>,
    body: string | Buffer,
    head: boolean,
    binary = false,
  ): GatewayResponse {
    // An explicit length lets Node send the body in one piece instead of chunked encoding.
    out['content-length'] = String(typeof body !== 'string' || binary ? body.length : Buffer.byteLength(body));
    const response: GatewayResponse = { status, headers: out, body: head ? null : body };
    if (binary) response.binary = true;
    return response;
  }

  return {
    headers,
    withBody,
    error(error, decision, nowMs, head, registry = false) {
      const body = registry ? JSON.stringify({ error: error.message }) : errorBody(error);
      const response = withBody(error.status, headers(decision, nowMs, NO_STORE, true), body, head);
      if (error.headers !== undefined) Object.assign(response.headers, error.headers);
      return response;
    },
    preflight(decision, nowMs, methods) {
      const out = headers(decision, nowMs, NO_STORE, false);
      Object.assign(out, cors.preflightHeaders);
      out['access-control-allow-methods'] = methods;
      return { status: 204, headers: out, body: null };
    },
  };
}
