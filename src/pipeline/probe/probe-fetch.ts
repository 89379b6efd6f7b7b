/**
 * The `fetch` the MCP SDK's transports are given when probing one remote: `node:http`/`node:https` through the
 * webhooks' address-filtering agents (`src/notify/address-filter.ts`), so no probe reaches a private address,
 * whatever a name resolves to when the socket connects. It never sends credentials (no `Authorization`,
 * `Cookie` or `Proxy-Authorization`, whoever set them), refuses a URL that is not `https` (`http` only when
 * allowed) or carries user info, follows at most `MAX_REDIRECTS` redirects itself and checks each hop's URL
 * and address as it checks the first, and counts every byte of every answer against the probe's budget: past
 * it the answer is cut and the probe fails as `too-large`. Everything runs under the probe's one signal, so
 * its deadline ends every exchange it started. The first cause of failure is kept in the `ProbeExchange`.
 */
import http from 'node:http';
import https from 'node:https';
import { type Readable, Transform } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ProbeFailure } from '../../model/probes.js';
import type { ReceiverAgents } from '../../notify/address-filter.js';

export const MAX_REDIRECTS = 3;
const USER_AGENT = 'mcp-trust-score-probe/1';
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** An exchange's failure, with its kind: what the prober records. */
export class ProbeError extends Error {
  constructor(
    readonly kind: ProbeFailure,
    message: string,
  ) {
    super(message);
  }
}

/** What one probe's exchanges share: its agents, rules, budget and deadline, and what they saw. */
export interface ProbeExchange {
  agents: ReceiverAgents;
  allowHttp: boolean;
  /** Bytes of answer bodies still allowed for this probe. */
  bytesLeft: number;
  signal: AbortSignal;
  /** The first failure any exchange of this probe met. */
  failure?: ProbeError;
  /** The last HTTP status that was not a success, and the `WWW-Authenticate` of the last 401. */
  lastErrorStatus?: number;
  unauthorized?: { wwwAuthenticate: string | null };
  /** Stops the probe (its deadline, its budget): every exchange under `signal` ends. */
  abort(reason: ProbeError): void;
}

/** The URL when the prober may ask it; a ProbeError (`url`) otherwise. */
export function checkProbeUrl(text: string, allowHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProbeError('url', 'not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowHttp)) {
    throw new ProbeError('url', allowHttp ? 'not an http(s) URL' : 'not an https URL');
  }
  if (url.username !== '' || url.password !== '') throw new ProbeError('url', 'the URL carries user info');
  if (/[{}]|%7B|%7D/i.test(url.href)) throw new ProbeError('url', 'the URL is a template with variables');
  return url;
}

/** A connection error as a failure kind. */
export function failureOf(error: NodeJS.ErrnoException): ProbeFailure {
  const code = error.code ?? '';
  if (/is not allowed/.test(error.message)) return 'address';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NODATA') return 'dns';
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return 'refused';
  }
  if (/^ERR_TLS|^ERR_SSL|CERT|^DEPTH_ZERO|^UNABLE_TO_VERIFY|^SELF_SIGNED|^HOSTNAME_MISMATCH/.test(code)) return 'tls';
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return 'timeout';
  return 'protocol';
}

function fail(exchange: ProbeExchange, error: ProbeError): ProbeError {
  exchange.failure ??= error;
  return error;
}

/** The request's headers, without any credential, with this prober's user agent. */
function outgoingHeaders(init: RequestInit | undefined): Record<string, string> {
  const headers = new Headers(init?.headers);
  for (const name of CREDENTIAL_HEADERS) headers.delete(name);
  headers.set('user-agent', USER_AGENT);
  const plain: Record<string, string> = {};
  headers.forEach((value, name) => {
    plain[name] = value;
  });
  return plain;
}

/** The body as text: the SDK sends JSON-RPC as a string. */
function bodyText(body: RequestInit['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  throw new ProbeError('protocol', 'the prober sends only text bodies');
}

/** A counted copy of an answer's body: past the budget it errors and the probe is stopped as `too-large`. */
function counted(exchange: ProbeExchange, source: http.IncomingMessage): Readable {
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      exchange.bytesLeft -= chunk.length;
      if (exchange.bytesLeft < 0) {
        const error = fail(exchange, new ProbeError('too-large', 'the remote answered more than the probe allows'));
        exchange.abort(error);
        done(error);
        return;
      }
      done(null, chunk);
    },
  });
  source.on('error', (error) => limit.destroy(error));
  limit.on('close', () => source.destroy());
  return source.pipe(limit);
}

/**
 * A node stream as a web stream, by hand: `Readable.toWeb` may enqueue into a stream its reader has already
 * cancelled (a stream the SDK closes) and throw outside any caller. Paused while the reader is behind.
 */
function webStream(source: Readable): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      source.on('data', (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) source.pause();
      });
      source.on('end', () => {
        if (done) return;
        done = true;
        controller.close();
      });
      const failed = (error: Error) => {
        if (done) return;
        done = true;
        controller.error(error);
      };
      source.on('error', failed);
      source.on('close', () => failed(new Error('the connection closed before the answer ended')));
    },
    pull() {
      source.resume();
    },
    cancel() {
      done = true;
      source.destroy();
    },
  });
}

/** One request and its answer's head; the body is streamed, counted. */
function exchangeOnce(
  exchange: ProbeExchange,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  callerSignal: AbortSignal | undefined,
): Promise<Response> {
  const client = url.protocol === 'https:' ? https : http;
  const agent = url.protocol === 'https:' ? exchange.agents.https : exchange.agents.http;
  return new Promise<Response>((resolve, reject) => {
    if (exchange.signal.aborted) {
      reject(exchange.failure ?? new ProbeError('timeout', 'the probe was stopped'));
      return;
    }
    const request = client.request(url, {
      method,
      agent,
      headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      signal: callerSignal === undefined ? exchange.signal : AbortSignal.any([exchange.signal, callerSignal]),
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      // The SDK ended its own request (closing a stream): not a failure of the remote.
      if (callerSignal?.aborted === true && !exchange.signal.aborted) reject(error);
      else if (exchange.signal.aborted) reject(exchange.failure ?? new ProbeError('timeout', 'the probe was stopped'));
      else reject(fail(exchange, new ProbeError(failureOf(error), error.message)));
    });
    request.on('response', (answer) => {
      const status = answer.statusCode ?? 0;
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one);
      }
      if (status === 401) exchange.unauthorized = { wwwAuthenticate: responseHeaders.get('www-authenticate') };
      if (status >= 300) exchange.lastErrorStatus = status;
      const empty = status === 204 || status === 304 || method === 'HEAD' || status < 200;
      if (empty) answer.resume();
      const stream = empty ? null : webStream(counted(exchange, answer));
      try {
        resolve(new Response(stream, { status: status < 200 ? 502 : status, headers: responseHeaders }));
      } catch {
        answer.destroy();
        reject(fail(exchange, new ProbeError('protocol', `the remote answered HTTP status ${status}`)));
      }
    });
    request.end(body);
  });
}

/** The probe's `fetch`: see the module comment. */
export function probeFetch(exchange: ProbeExchange): FetchLike {
  return async (input, init) => {
    let url = checkProbeUrl(String(input), exchange.allowHttp);
    let method = (init?.method ?? 'GET').toUpperCase();
    const headers = outgoingHeaders(init);
    let body = bodyText(init?.body);
    for (let hop = 0; ; hop++) {
      const answer = await exchangeOnce(exchange, url, method, headers, body, init?.signal ?? undefined);
      const location = answer.headers.get('location');
      if (![301, 302, 303, 307, 308].includes(answer.status) || location === null) return answer;
      await answer.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw fail(exchange, new ProbeError('url', `more than ${MAX_REDIRECTS} redirects`));
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw fail(exchange, new ProbeError('url', 'a redirect to something that is not a URL'));
      }
      // Each hop is checked as the first was: its form here, its address by the agents when it connects.
      try {
        url = checkProbeUrl(next.href, exchange.allowHttp);
      } catch (error) {
        throw fail(exchange, error as ProbeError);
      }
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method !== 'GET')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
      }
    }
  };
}
