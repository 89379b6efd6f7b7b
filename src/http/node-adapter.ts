/**
 * The one bridge between Node's `http` objects and the gateway, used by `npm start` (scripts/serve.ts) and
 * by the Vercel functions (a `VercelRequest` is an `IncomingMessage`, a `VercelResponse` a `ServerResponse`).
 *
 * It hands the gateway a small view of the request (method, URL, a header getter) and writes the plain
 * response back with one `writeHead` and one `end`. It builds no Web `Request`/`Response` on the way: in
 * Node 20 making those and reading the body back costs several times the rest of a request. The body of a
 * request is never read: every route is GET or HEAD, and Node discards an unread body by itself.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayRequest, GatewayResponse } from '../gateway/gateway.js';
import { errorBody, ApiError } from '../gateway/errors.js';

/** What the adapter needs of a gateway. */
export interface RequestHandler {
  handle(request: GatewayRequest): Promise<GatewayResponse>;
}

/** The gateway's view of a Node request. `url` is the request target, e.g. `/v1/search?q=x`. */
export function toGatewayRequest(request: IncomingMessage, url: string = request.url ?? '/'): GatewayRequest {
  const raw = request.headers;
  return {
    method: request.method ?? 'GET',
    url,
    headers: {
      get(name: string): string | null {
        const value = raw[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
  };
}

/** Write a gateway response to a Node response. */
export function sendGatewayResponse(response: ServerResponse, reply: GatewayResponse): void {
  response.writeHead(reply.status, reply.headers);
  if (reply.body === null) response.end();
  else response.end(reply.body);
}

export interface NodeHandlerOptions {
  /** Turns the incoming request's URL into the gateway's (the Vercel functions undo their rewrite here). */
  url?: (request: IncomingMessage) => string;
}

/** A Node `(req, res)` listener that answers with `handler`. */
export function createNodeHandler(
  handler: RequestHandler,
  options: NodeHandlerOptions = {},
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    try {
      const url = options.url ? options.url(request) : (request.url ?? '/');
      sendGatewayResponse(response, await handler.handle(toGatewayRequest(request, url)));
    } catch (error) {
      // The gateway answers its own errors; this only catches a failure of the adapter or of a getter
      // around it (a snapshot that cannot be loaded), still in the API's error body.
      console.error('http: unexpected error', error);
      if (!response.headersSent) {
        response.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        response.end(errorBody(new ApiError('internal_error', 'Internal error')));
      } else {
        response.destroy();
      }
    }
  };
}
