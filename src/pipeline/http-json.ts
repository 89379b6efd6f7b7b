/**
 * GET a JSON document from the registry: a bounded timeout per attempt, and retries with exponential backoff on
 * a network error, a 5xx and a 429, honouring `Retry-After` (seconds or an HTTP date) up to a bound. Any other
 * status, or a body that is not JSON, is an error at once. Uses the platform's `fetch` (undici).
 */
import { PipelineError, printable } from './errors.js';
import { retryAfterMs } from '../model/retry-after.js';

export interface HttpPolicy {
  /** Per attempt, headers and body together. */
  timeoutMs: number;
  /** Attempts after the first. */
  retries: number;
  /** The first backoff; each retry doubles it. */
  backoffMs: number;
  /** The longest `Retry-After` obeyed; a longer one fails the request. */
  maxRetryAfterMs: number;
}

export const DEFAULT_HTTP_POLICY: HttpPolicy = {
  timeoutMs: 30_000,
  retries: 4,
  backoffMs: 1_000,
  maxRetryAfterMs: 120_000,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The most bytes one answer may hold: a registry page of 100 servers, or a GitHub answer, is far smaller. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The whole body of `response`, or an error once it passes `maxBytes` (the rest is not read). */
export async function readBounded(response: Response, maxBytes = MAX_ANSWER_BYTES): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new PipelineError(`answered with more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

class Retryable extends Error {
  constructor(
    message: string,
    readonly waitMs?: number,
  ) {
    super(message);
  }
}

/** A request other than a plain GET: a JSON body is POSTed with its content type. */
export interface JsonRequest {
  method: 'GET' | 'POST';
  body?: unknown;
  headers?: Record<string, string>;
  /** `error` for a service that never redirects, so an answer can never send the request elsewhere. */
  redirect?: 'error' | 'follow';
}

async function attempt(url: string, policy: HttpPolicy, maxBytes: number, request: JsonRequest): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: request.method,
      headers: {
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      ...(request.redirect === undefined ? {} : { redirect: request.redirect }),
      signal: AbortSignal.timeout(policy.timeoutMs),
    });
    text = Buffer.from(await readBounded(response, maxBytes)).toString('utf8');
  } catch (error) {
    if (error instanceof PipelineError) throw error;
    const cause = (error as Error & { cause?: { code?: string } }).cause?.code;
    throw new Retryable(
      `${(error as Error).name === 'TimeoutError' ? 'timed out' : 'network error'}${cause ? ` (${cause})` : ''}`,
    );
  }
  if (response.status === 429 || response.status >= 500) {
    const wait = retryAfterMs(response.headers.get('retry-after'));
    if (wait !== undefined && wait > policy.maxRetryAfterMs) {
      throw new PipelineError(
        `answered ${response.status} with Retry-After ${Math.ceil(wait / 1000)} s, past the bound`,
      );
    }
    throw new Retryable(`answered ${response.status}`, wait);
  }
  if (response.status !== 200) throw new PipelineError(`answered ${response.status}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new PipelineError(`answered with a body that is not JSON: ${printable(text, 60)}`);
  }
}

/**
 * The JSON body of a 200 answer to GET `url`, of at most `maxBytes`; `onRequest` is called once per HTTP
 * request made.
 */
export async function getJson(
  url: string,
  policy: HttpPolicy,
  onRequest: () => void = () => {},
  maxBytes = MAX_ANSWER_BYTES,
): Promise<unknown> {
  return requestJson(url, { method: 'GET' }, policy, onRequest, maxBytes);
}

/** As `getJson`, for any method and a JSON body (OSV's `POST /v1/querybatch`). */
export async function requestJson(
  url: string,
  request: JsonRequest,
  policy: HttpPolicy,
  onRequest: () => void = () => {},
  maxBytes = MAX_ANSWER_BYTES,
): Promise<unknown> {
  for (let tries = 0; ; tries++) {
    try {
      onRequest();
      return await attempt(url, policy, maxBytes, request);
    } catch (error) {
      if (!(error instanceof Retryable)) throw error;
      if (tries >= policy.retries) throw new PipelineError(`${error.message} (after ${tries + 1} attempts)`);
      await sleep(error.waitMs ?? policy.backoffMs * 2 ** tries);
    }
  }
}
