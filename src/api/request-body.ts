/**
 * A POST route's JSON body: `application/json`, at most the route's size, JSON, and valid by the route's
 * schema; every other case is one 400 (`invalid_body`) that names what is wrong. The body is read only after
 * the key was checked, so an anonymous client cannot make the server read anything.
 */
import { ApiError, quote } from './errors.js';
import type { BodySpec } from './route.js';
import type { QueryEngine } from '../query/types.js';

/** The most a body may hold: 64 KB, room for a hundred items with long identifiers. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Thrown by a body reader when the body is larger than it may be; the rest is not read. */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
}

/** Thrown by a body reader when the client ended or reset its connection before the body arrived whole. */
export class BodyCutShort extends Error {
  override readonly name = 'BodyCutShort';
}

/** What the gateway needs to read a body: the platform's reader (Node stream or Web Request). */
export interface BodySource {
  headers: { get(name: string): string | null | undefined };
  /** The body as text, or a rejection with BodyTooLarge past `maxBytes`, BodyCutShort when it never ends. */
  readBody?(maxBytes: number): Promise<string>;
}

export type BodyOutcome = { ok: true; body: unknown; cost: number } | { ok: false; error: ApiError };

const invalid = (message: string): BodyOutcome => ({ ok: false, error: new ApiError('invalid_body', message) });

export async function readJsonBody(
  request: BodySource,
  spec: BodySpec,
  engine?: () => QueryEngine,
): Promise<BodyOutcome> {
  const type = request.headers.get('content-type') ?? '';
  const media = type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (media !== 'application/json') {
    return invalid(
      `Invalid body: Content-Type must be application/json${type === '' ? ' (none was sent)' : ` (got ${quote(type, 60)})`}`,
    );
  }
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) return invalid(`Invalid body: it is larger than ${MAX_BODY_BYTES / 1024} KB`);
  let text: string;
  try {
    text = request.readBody === undefined ? '' : await request.readBody(MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) return invalid(`Invalid body: it is larger than ${MAX_BODY_BYTES / 1024} KB`);
    if (error instanceof BodyCutShort) {
      return invalid('Invalid body: the connection ended before the whole body arrived');
    }
    throw error;
  }
  if (text.trim() === '') return invalid('Invalid body: it is empty; send a JSON object');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return invalid(`Invalid body: it is not valid JSON (${(error as Error).message.slice(0, 120)})`);
  }
  const parsed = (await spec.schema()).safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((issue) => {
      const where = issue.path.length === 0 ? 'body' : issue.path.join('.');
      return `${where}: ${issue.message}`;
    });
    const more = parsed.error.issues.length - problems.length;
    return invalid(`Invalid body: ${problems.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`);
  }
  const refused = engine === undefined ? undefined : spec.refuse?.(parsed.data, engine());
  if (refused !== undefined) return invalid(`Invalid body: ${refused}`);
  return { ok: true, body: parsed.data, cost: spec.cost(parsed.data) };
}
