/**
 * TEST-ONLY: a small HTTP server that speaks Upstash's Redis REST protocol and forwards every command to a
 * real Redis server, so the Upstash store is exercised end to end through `@upstash/redis` over real HTTP.
 *
 * What it covers (read from @upstash/redis 1.39.0's `HttpClient` and Upstash's REST documentation; the
 * encoding follows hiett/serverless-redis-http, the community re-implementation Upstash users test with):
 * - `POST /` with a JSON command array (`["EVALSHA", sha, 1, key, arg]`) → `{"result": ...}`;
 * - `POST /pipeline` with an array of command arrays → `[{"result"} | {"error"}, ...]`, executed in order,
 *   not atomically (which is what @upstash/redis's auto-pipelining sends for concurrent calls);
 * - `POST /multi-exec` → the same array shape, executed in one MULTI/EXEC on the real server;
 * - `Authorization: Bearer <token>` checked (constant time) → 401 `{"error": ...}` otherwise;
 * - `Upstash-Encoding: base64`: every string in a result (bulk or simple, at any depth) is sent as base64,
 *   numbers and nulls as they are; errors are never encoded;
 * - a Redis error reply → 400 `{"error": "<Redis message>"}` for a single command (the client throws),
 *   `{"error"}` in place for pipeline entries.
 *
 * What it cannot prove: anything about the real Upstash service: its edge and global replication
 * behaviour, `upstash-sync-token` read-your-writes semantics (ignored here), token scopes (read-only
 * tokens, ACLs), request/size/command limits and rate limiting, Lua support and script caching on their
 * side, TLS, and latency (this runs on localhost, so timings say nothing about production).
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, ErrorReply, RESP_TYPES } from 'redis';

export interface UpstashBridge {
  /** Base URL to give `@upstash/redis` (http://127.0.0.1:<port>). */
  url: string;
  token: string;
  /** How many HTTP requests of each kind were served (lets a test show traffic really went through HTTP). */
  stats: { single: number; pipeline: number; multiExec: number; unauthorized: number };
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

type CommandArgs = string[];

function toArgs(command: unknown): CommandArgs {
  if (!Array.isArray(command) || command.length === 0) throw new Error('ERR a command is a non-empty JSON array');
  return command.map((part) => {
    if (typeof part === 'string') return part;
    if (typeof part === 'number' || typeof part === 'boolean') return String(part);
    return JSON.stringify(part);
  });
}

/** Turn a Redis reply into the JSON Upstash sends, base64-encoding strings when the client asked for it. */
function encodeResult(value: unknown, base64: boolean): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (Buffer.isBuffer(value)) return base64 ? value.toString('base64') : value.toString('utf8');
  if (typeof value === 'string') return base64 ? Buffer.from(value, 'utf8').toString('base64') : value;
  if (Array.isArray(value)) return value.map((item) => encodeResult(item, base64));
  throw new Error(`bridge cannot encode a reply of type ${typeof value}`);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('ERR request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  response.end(json);
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Start the bridge on a free port of 127.0.0.1, forwarding to the Redis at `redisUrl`. */
export async function startUpstashBridge(options: { redisUrl: string; token: string }): Promise<UpstashBridge> {
  const redis = createClient({ url: options.redisUrl });
  redis.on('error', () => {
    // Reported to the HTTP caller as a failed command; the client reconnects by itself.
  });
  await redis.connect();
  // Bulk strings as Buffers keep binary values intact; simple strings (OK, PONG) stay JS strings.
  const typed = redis.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  const expectedToken = digest(`Bearer ${options.token}`);
  const stats = { single: 0, pipeline: 0, multiExec: 0, unauthorized: 0 };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://bridge').pathname;
    if (request.method !== 'POST' || !['/', '/pipeline', '/multi-exec'].includes(path)) {
      send(response, 404, { error: `bridge serves POST /, /pipeline and /multi-exec, not ${request.method} ${path}` });
      return;
    }
    if (!timingSafeEqual(digest(request.headers.authorization ?? ''), expectedToken)) {
      stats.unauthorized += 1;
      send(response, 401, { error: 'Unauthorized' });
      return;
    }
    const base64 = String(request.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
    let body: unknown;
    try {
      body = JSON.parse(await readBody(request));
    } catch (error) {
      send(response, 400, { error: `ERR failed to parse the request body: ${errorMessage(error)}` });
      return;
    }

    if (path === '/') {
      stats.single += 1;
      try {
        const result = await typed.sendCommand(toArgs(body));
        send(response, 200, { result: encodeResult(result, base64) });
      } catch (error) {
        send(response, 400, { error: errorMessage(error) });
      }
      return;
    }

    if (!Array.isArray(body) || body.length === 0) {
      send(response, 400, { error: 'ERR a pipeline is a non-empty array of command arrays' });
      return;
    }
    let commands: CommandArgs[];
    try {
      commands = body.map(toArgs);
    } catch (error) {
      send(response, 400, { error: errorMessage(error) });
      return;
    }

    if (path === '/pipeline') {
      stats.pipeline += 1;
      // Sent together on one connection: executed in order, other clients' commands may interleave.
      const settled = await Promise.allSettled(commands.map((args) => typed.sendCommand(args)));
      send(
        response,
        200,
        settled.map((entry) =>
          entry.status === 'fulfilled'
            ? { result: encodeResult(entry.value, base64) }
            : { error: errorMessage(entry.reason) },
        ),
      );
      return;
    }

    stats.multiExec += 1;
    const transaction = typed.multi();
    for (const args of commands) transaction.addCommand(args);
    try {
      const replies = (await transaction.exec()) as unknown[];
      send(
        response,
        200,
        replies.map((reply) => ({ result: encodeResult(reply, base64) })),
      );
    } catch (error) {
      // A command that failed inside EXEC: report each reply in place, errors as {error}.
      const replies = (error as { replies?: unknown[] }).replies;
      if (Array.isArray(replies)) {
        send(
          response,
          200,
          replies.map((reply) =>
            reply instanceof ErrorReply ? { error: reply.message } : { result: encodeResult(reply, base64) },
          ),
        );
      } else {
        send(response, 400, { error: errorMessage(error) });
      }
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, { error: `bridge failure: ${errorMessage(error)}` });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token: options.token,
    stats,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.destroy();
    },
  };
}
