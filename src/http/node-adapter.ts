/**
 * The one bridge between Node's `http` objects and the gateway, used by `npm start` (scripts/serve.ts) and
 * by the Vercel functions (a `VercelRequest` is an `IncomingMessage`, a `VercelResponse` a `ServerResponse`).
 *
 * It hands the gateway a small view of the request (method, URL, a header getter) and writes the plain
 * response back with one `writeHead` and one `end`. It builds no Web `Request`/`Response` on the way: in
 * Node 20 making those and reading the body back costs several times the rest of a request. A body is read
 * only when the gateway asks for it (a POST route, after the key was checked), and never past its bound; an
 * unread body Node discards by itself, and a connection whose body was cut short is closed after the answer.
 */
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { BodyCutShort, BodyTooLarge } from '../api/request-body.js';
import type { GatewayRequest, GatewayResponse } from '../gateway/gateway.js';
import { errorBody, ApiError, type ErrorCode } from '../api/errors.js';
import { FORBIDDEN_BYTE_RULE, MAX_TARGET_BYTES } from '../api/request-target.js';

/** What the adapter needs of a gateway. */
export interface RequestHandler {
  handle(request: GatewayRequest): Promise<GatewayResponse>;
}

/** The gateway's view of a Node request. `url` is the request target, e.g. `/v1/search?q=x`. */
export function toGatewayRequest(
  request: IncomingMessage,
  url: string = request.url ?? '/',
  address: string | undefined = request.socket.remoteAddress,
): GatewayRequest {
  const raw = request.headers;
  return {
    method: request.method ?? 'GET',
    url,
    readBody: (maxBytes) => readBody(request, maxBytes),
    ...(address === undefined ? {} : { address }),
    headers: {
      get(name: string): string | null {
        const value = raw[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
  };
}

/**
 * The origin form (`/v1/stats?x`) of a request target in absolute form (`http://host/v1/stats?x`), which
 * RFC 9112 (section 3.2.2) asks every server to accept; any other target as it is. The host named in it is
 * not used (the service answers the same whatever the host).
 */
export function originForm(target: string): string {
  const scheme = /^https?:\/\//i.exec(target);
  if (scheme === null) return target;
  const rest = target.slice(scheme[0].length);
  const pathStart = rest.search(/[/?]/);
  if (pathStart === -1) return '/';
  return rest[pathStart] === '?' ? `/${rest.slice(pathStart)}` : rest.slice(pathStart);
}

/** Requests whose body was refused part-way: the rest is never read, so their connection cannot be reused. */
const cutShort = new WeakSet<IncomingMessage>();

/**
 * Requests whose client half-closed the connection (FIN) mid-body: Node's parser reports that as a client
 * error on the socket (`createClientErrorHandler`), which tells the body's reader here, or marks the request
 * so a reader that starts later fails at once. The socket can still carry the answer.
 */
const endedEarly = new WeakSet<IncomingMessage>();
const bodyReaders = new WeakMap<IncomingMessage, () => void>();

function bodyEndedEarly(request: IncomingMessage): void {
  endedEarly.add(request);
  bodyReaders.get(request)?.();
}

/** How often a body cut short is reported on stderr: a client that hangs up is not the operator's problem. */
const CUT_SHORT_REPORT_EVERY_MS = 10_000;
let cutShortReportedAt = Number.NEGATIVE_INFINITY;

function reportCutShort(): void {
  const at = performance.now();
  if (at - cutShortReportedAt < CUT_SHORT_REPORT_EVERY_MS) return;
  cutShortReportedAt = at;
  console.error(
    'http: a client ended its connection before its request body arrived whole; answered 400 where the ' +
      `connection could still carry it (said at most once every ${CUT_SHORT_REPORT_EVERY_MS / 1000} s)`,
  );
}

/**
 * The body of `request` as UTF-8 text; a rejection with BodyTooLarge once it passes `maxBytes`, or with
 * BodyCutShort when the client resets the connection or half-closes it before the body is whole.
 */
function readBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onCut);
      request.off('aborted', onCut);
      bodyReaders.delete(request);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      request.pause();
      cutShort.add(request);
      reject(new BodyTooLarge());
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onCut = () => {
      if (request.complete) return; // the whole body is here; 'end' follows
      stop();
      cutShort.add(request);
      reportCutShort();
      reject(new BodyCutShort());
    };
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', onCut);
    request.once('aborted', onCut);
    bodyReaders.set(request, onCut);
    if (endedEarly.has(request) || request.socket.destroyed) onCut();
  });
}

/** Write a gateway response to a Node response. */
export function sendGatewayResponse(response: ServerResponse, reply: GatewayResponse): void {
  // The connection, not `response.socket`: a request that arrives while the answer before it on the same
  // connection is still being written out (pipelined, or a keep-alive client quicker than the 'finish' of
  // that answer on a busy host) gets a response with no socket yet, which Node writes out in turn.
  if (response.req.socket.destroyed) {
    reply.release?.(); // the client is gone: nothing can be written, and the lent buffer goes back
    return;
  }
  if (cutShort.has(response.req)) reply.headers.connection = 'close';
  response.writeHead(reply.status, reply.headers);
  if (reply.body === null) response.end();
  else if (typeof reply.body !== 'string') {
    // A lent buffer goes back once the response has finished (written out whole); never, if it is cut.
    const { release } = reply;
    if (release === undefined) response.end(reply.body);
    else response.end(reply.body, () => release());
  } else if (reply.binary === true) response.end(reply.body, 'latin1');
  else response.end(reply.body);
}

export interface NodeHandlerOptions {
  /** Turns the incoming request's URL into the gateway's (the Vercel functions undo their rewrite here). */
  url?: (request: IncomingMessage) => string;
  /** The client's address (a platform that names the client sets it); default: the connection's. */
  address?: (request: IncomingMessage) => string | undefined;
}

/** A Node `(req, res)` listener that answers with `handler`. */
export function createNodeHandler(
  handler: RequestHandler,
  options: NodeHandlerOptions = {},
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    try {
      const url = options.url ? options.url(request) : (request.url ?? '/');
      const address = options.address ? options.address(request) : request.socket.remoteAddress;
      sendGatewayResponse(response, await handler.handle(toGatewayRequest(request, url, address)));
    } catch (error) {
      // The gateway answers its own errors; this only catches a failure of the adapter or of a getter
      // around it (a snapshot that cannot be loaded), still in the API's error body.
      console.error('http: unexpected error', error);
      if (!response.headersSent) {
        response.writeHead(500, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        });
        response.end(errorBody(new ApiError('internal_error', 'Internal error')));
      } else {
        response.destroy();
      }
    }
  };
}

/** Makes the error response of a request the gateway never saw (the gateway's `refuse`). */
export type Refuse = (code: ErrorCode, message: string) => GatewayResponse;

/**
 * The limits the Node server of `npm start` runs with (docs/security.md, "Hostile input"). Node answers a request
 * whose request line and headers exceed `maxHeaderSize` itself (431, or 414 when the request line alone is
 * too long), and cuts a client that has not sent its headers within `headersTimeout` (408): a slow client
 * cannot hold a connection open for long. `connectionsCheckingInterval` is how often Node looks for such
 * clients; `requireHostHeader` is off because the missing Host is answered below, with the error body.
 */
export const NODE_SERVER_OPTIONS = {
  maxHeaderSize: 16 * 1024,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 1000,
  requireHostHeader: false,
} as const;

/** Whether `request` is HTTP/1.1 without a Host header, which RFC 9112 asks a server to refuse with 400. */
export function lacksRequiredHost(request: IncomingMessage): boolean {
  return request.httpVersionMajor === 1 && request.httpVersionMinor >= 1 && request.headers.host === undefined;
}

/** Answer an HTTP/1.1 request without a Host header: 400 `bad_request` with the error body, then close. */
export function refuseMissingHost(response: ServerResponse, refuse: Refuse): void {
  const reply = refuse('bad_request', 'An HTTP/1.1 request must carry a Host header');
  reply.headers.connection = 'close';
  sendGatewayResponse(response, reply);
}

/** `reply` as the raw bytes of an HTTP/1.1 response that closes the connection. */
function rawResponse(reply: GatewayResponse): string {
  const lines = [`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? 'Error'}`];
  for (const [name, value] of Object.entries(reply.headers)) lines.push(`${name}: ${value}`);
  lines.push('connection: close');
  return `${lines.join('\r\n')}\r\n\r\n${reply.body ?? ''}`; // an error body: text
}

/** Write `reply` on a socket Node's HTTP parser has given up on, and close it. */
function answerOnSocket(socket: Duplex, reply: GatewayResponse): void {
  // The client may reset the connection while the answer is written. Node has detached its own listeners
  // from a CONNECT socket, and an 'error' event without a listener would end the process.
  socket.on('error', () => socket.destroy());
  socket.end(rawResponse(reply));
  // A client that never closes its side must not keep the socket: it is cut a moment after the answer.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * Whether the request line alone is past the header limit, judged from the bytes Node was parsing when the
 * limit was hit: they start with the request line, and its end (the first line feed) is not within the limit.
 */
function requestLineTooLong(packet: Buffer | undefined): boolean {
  if (packet === undefined || !/^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) return false;
  const lineEnd = packet.indexOf(0x0a);
  return lineEnd === -1 || lineEnd >= NODE_SERVER_OPTIONS.maxHeaderSize;
}

/** What a parser error code says, in words a client can act on (never the bytes received). */
function parserProblem(code: string | undefined): string {
  switch (code) {
    case 'HPE_INVALID_METHOD':
      return 'the method is not an HTTP method';
    case 'HPE_INVALID_VERSION':
      return 'the request line does not end in HTTP/1.0 or HTTP/1.1 followed by CRLF';
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return 'a header line is malformed (a name or value holds a forbidden byte, or a line does not end in CRLF)';
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return 'Content-Length and Transfer-Encoding are missing, repeated, invalid or both present';
    default:
      return 'the request is not valid HTTP/1.1';
  }
}

/**
 * A `clientError` listener for a Node `http.Server`: Node's own answer to a message it cannot parse is a
 * bare status line; this one is the API's error body with the usual headers (rate-limit headers included),
 * then the connection is closed. It never echoes what was received: the bytes may hold a key.
 */
export function createClientErrorHandler(refuse: Refuse): (error: Error, socket: Duplex) => void {
  return (error, socket) => {
    const { code, rawPacket } = error as NodeJS.ErrnoException & { rawPacket?: Buffer };
    // A response already under way on this socket (Node sets `_httpMessage` until it is finished, and its
    // own default handler looks at the same thing): adding a second one would corrupt it, so only cut.
    const inProgress = (socket as Duplex & { _httpMessage?: unknown })._httpMessage;
    if (code === 'HPE_INVALID_EOF_STATE' && inProgress && socket.writable) {
      // A half-close mid-body: the request under way answers it (400, see readBody), then the connection
      // closes; a handler that never answers still loses the socket after a while.
      bodyEndedEarly((inProgress as ServerResponse).req);
      setTimeout(() => socket.destroy(), 10_000).unref();
      return;
    }
    if (code === 'ECONNRESET' || !socket.writable || inProgress) {
      socket.destroy();
      return;
    }
    let reply: GatewayResponse;
    if (code === 'HPE_HEADER_OVERFLOW') {
      const limit = `${NODE_SERVER_OPTIONS.maxHeaderSize / 1024} KB`;
      reply = requestLineTooLong(rawPacket)
        ? refuse(
            'uri_too_long',
            `The request line is longer than ${limit}; the most this API reads is ${MAX_TARGET_BYTES} bytes (path and query)`,
          )
        : refuse('headers_too_large', `The request line and headers together exceed ${limit}`);
    } else if (code === 'HPE_INVALID_URL') {
      // The same rule, code and words as the gateway's own check, which sees this input on other platforms.
      reply = refuse('invalid_parameter', `Invalid URL: ${FORBIDDEN_BYTE_RULE}`);
    } else if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      reply = refuse(
        'request_timeout',
        `The request did not arrive in time (headers within ${NODE_SERVER_OPTIONS.headersTimeout / 1000} s)`,
      );
    } else {
      reply = refuse('bad_request', `Malformed request: ${parserProblem(code)}`);
    }
    answerOnSocket(socket, reply);
  };
}

/**
 * A `connect` listener: `CONNECT` asks for a tunnel, which this server never opens. Without a listener Node
 * would drop the connection silently; this answers 405 with the error body, then closes.
 */
export function createConnectHandler(refuse: Refuse): (request: IncomingMessage, socket: Duplex) => void {
  return (_request, socket) => {
    const reply = refuse(
      'method_not_allowed',
      'Method "CONNECT" is not allowed; this server answers GET, HEAD, OPTIONS',
    );
    reply.headers.allow = 'GET, HEAD, OPTIONS';
    answerOnSocket(socket, reply);
  };
}
