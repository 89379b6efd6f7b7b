/**
 * One delivery attempt: a POST of the event's JSON to the receiver with `node:http`/`node:https` through the
 * address-filtering agents, bounded by a timeout (10 s by default) for the whole exchange. A redirect is never
 * followed (node's client follows none; a 3xx is a failed attempt). The answer is read only up to its excerpt. What comes back is summed up without the
 * receiver's URL: neither its query string nor anything else of it reaches a message or a log line.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ReceiverAgents } from './address-filter.js';
import { retryAfterMs as readRetryAfter } from '../model/retry-after.js';

export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
/**
 * How much of the receiver's answer is kept (the test route shows it). Nothing past it is read: once it is
 * kept (or the answer ends), the connection is closed, so an answer without end costs nothing more.
 */
const KEPT_BODY_CHARS = 500;
/** `Retry-After` is honoured up to a day; a longer one waits a day. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

export interface AttemptResult {
  /** The receiver's status, when it answered. */
  status?: number;
  /** Why the attempt failed, in words (undefined on a 2xx). */
  error?: string;
  /** The wait `Retry-After` asked for, in milliseconds. */
  retryAfterMs?: number;
  /** The beginning of the receiver's answer. */
  body: string;
  ok: boolean;
  /** True when the sender stopped it (a shutdown): not an attempt that failed. */
  interrupted?: boolean;
}

export interface PostOptions {
  agents: ReceiverAgents;
  timeoutMs?: number;
  /** A DNS lookup in place of the system's (its answers pass the agent's check all the same). */
  lookup?: LookupFunction;
  nowMs?: number;
  /** Aborted: the attempt is interrupted at once (`interrupted`). */
  signal?: AbortSignal;
}

/** `Retry-After` as milliseconds relative to `nowMs`, at most MAX_RETRY_AFTER_MS. */
export function retryAfterMs(header: string | undefined, nowMs: number): number | undefined {
  const ms = readRetryAfter(header, nowMs);
  return ms === undefined ? undefined : Math.min(ms, MAX_RETRY_AFTER_MS);
}

export function postEvent(
  url: URL,
  body: string,
  headers: Readonly<Record<string, string>>,
  options: PostOptions,
): Promise<AttemptResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const client = url.protocol === 'https:' ? https : http;
  const agent = url.protocol === 'https:' ? options.agents.https : options.agents.http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(url, {
      method: 'POST',
      agent,
      ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'mcp-trust-score-webhooks/1',
      },
    });
    const timer = setTimeout(() => {
      finish({ ok: false, error: `no answer within ${timeoutMs / 1000} s`, body: '' });
      request.destroy();
    }, timeoutMs);
    const interrupt = () => {
      finish({ ok: false, interrupted: true, error: 'interrupted by a shutdown', body: '' });
      request.destroy();
    };
    if (options.signal?.aborted === true) queueMicrotask(interrupt);
    options.signal?.addEventListener('abort', interrupt, { once: true });
    request.on('close', () => options.signal?.removeEventListener('abort', interrupt));
    request.on('error', (error: NodeJS.ErrnoException) => {
      // The agent's refusal names the address and the rule; a socket error its code. Never the URL.
      const reason = error.code ?? error.message;
      finish({ ok: false, error: `could not deliver: ${reason.replace(/\s+/g, ' ').slice(0, 200)}`, body: '' });
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let kept = '';
      response.setEncoding('utf8');
      const done = () => {
        const ok = status >= 200 && status < 300;
        const retryAfter = retryAfterMs(response.headers['retry-after'], options.nowMs ?? Date.now());
        finish({
          ok,
          status,
          body: kept,
          ...(ok
            ? {}
            : {
                error:
                  status >= 300 && status < 400
                    ? `answered ${status}; redirects are not followed`
                    : `answered ${status}`,
              }),
          ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
        });
      };
      response.on('data', (chunk: string) => {
        kept += chunk.slice(0, KEPT_BODY_CHARS - kept.length);
        if (kept.length >= KEPT_BODY_CHARS) {
          done();
          // The socket goes with it: a kept-alive socket with an unread answer cannot be used again.
          response.destroy();
          request.destroy();
        }
      });
      response.on('end', done);
      response.on('error', done);
      response.on('aborted', done);
    });
    request.end(body);
  });
}
