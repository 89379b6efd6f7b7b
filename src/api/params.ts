/**
 * Query string → typed parameters, with the zod schemas of `src/schema.ts` (the only copy of the limits).
 *
 * Strict on purpose (decisions, section 3): an integer is plain decimal digits (`1e2`, `+1`, ` 1`, `0x10`
 * and the empty string are refused), `order` is accepted in any case, and every invalid, unknown or
 * repeated parameter is named in one 400, in a stable order: the endpoint's parameters in the order of its
 * table, then unknown names in the order they were given.
 */
import type { z } from 'zod';
import {
  type ChangesParams,
  ChangesParamsSchema,
  type ListParams,
  ListParamsSchema,
  type LookupParams,
  LookupParamsSchema,
  type SearchParams,
  SearchParamsSchema,
} from '../model/schema.js';
import { ApiError, quote } from './errors.js';
import { checkQuery } from './request-target.js';

/** Unknown names listed one by one before the rest are counted ("and 3 more"). */
const MAX_NAMED_UNKNOWN = 5;

interface ParamSpec<T> {
  schema: z.ZodType<T>;
  /** The endpoint's parameters, in the order of the specification's table. */
  names: readonly string[];
  /** Parameters whose text must be plain decimal digits before it becomes a number. */
  integers: ReadonlySet<string>;
  /** Parameters compared in any case, lower-cased before validation. */
  lowerCased: ReadonlySet<string>;
  /** What a request with no query string means (the schema's defaults), computed on first use. */
  defaults(): T | undefined;
}

/** The parameters of an endpoint: its schema, which are integers, which are compared in any case. */
export function spec<T>(
  schema: z.ZodType<T>,
  names: readonly string[],
  integers: string[],
  lowerCased: string[],
): ParamSpec<T> {
  // Not at module load: a schema's first parse compiles it, which a cold start should not pay for routes
  // it has not been asked yet.
  let empty: { value: T | undefined } | undefined;
  return {
    schema,
    names,
    integers: new Set(integers),
    lowerCased: new Set(lowerCased),
    defaults() {
      if (empty === undefined) {
        const parsed = schema.safeParse({});
        empty = { value: parsed.success ? parsed.data : undefined };
      }
      return empty.value;
    },
  };
}

const LIST = spec(
  ListParamsSchema,
  Object.keys(ListParamsSchema.shape),
  ['limit', 'offset', 'min_score'],
  ['order'],
);
const SEARCH = spec(SearchParamsSchema, Object.keys(SearchParamsSchema.shape), ['limit', 'offset'], ['in']);
const LOOKUP = spec(LookupParamsSchema, Object.keys(LookupParamsSchema.shape), [], []);
const CHANGES = spec(ChangesParamsSchema, Object.keys(ChangesParamsSchema.shape), ['limit', 'offset'], []);

const DIGITS = /^[0-9]+$/;

/**
 * Validate `query` (the text after `?`, without it) against `parameters`. Throws one `ApiError`
 * `invalid_parameter` naming every problem.
 */
export function parse<T>(query: string, parameters: ParamSpec<T>): T {
  if (query === '') {
    const defaults = parameters.defaults();
    if (defaults !== undefined) return defaults;
  }
  checkQuery(query);

  const values: Record<string, unknown> = {};
  // Sets keep insertion order (the order names were given) and keep a long hostile query linear.
  const repeated = new Set<string>();
  const unknown = new Set<string>();
  for (const [name, value] of new URLSearchParams(query)) {
    if (!parameters.names.includes(name)) {
      unknown.add(name);
    } else if (Object.hasOwn(values, name)) {
      repeated.add(name);
    } else if (parameters.integers.has(name)) {
      // Text that is not plain digits stays text, and the schema's number check refuses it with the
      // parameter's own message ("limit must be an integer from 1 to 200").
      values[name] = DIGITS.test(value) ? Number(value) : value;
    } else {
      values[name] = parameters.lowerCased.has(name) ? value.toLowerCase() : value;
    }
  }
  for (const name of repeated) delete values[name];

  const result = parameters.schema.safeParse(values);
  const problems = new Map<string, string>();
  for (const name of repeated) problems.set(name, `${name} is repeated; give it once`);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? '');
      if (!problems.has(name)) problems.set(name, issue.message);
    }
  }

  const messages = parameters.names.filter((name) => problems.has(name)).map((name) => problems.get(name));
  if (unknown.size > 0) messages.push(unknownMessage([...unknown], parameters.names));
  if (messages.length > 0) {
    throw new ApiError('invalid_parameter', `Invalid query: ${messages.join('; ')}`);
  }
  if (!result.success) throw new ApiError('invalid_parameter', 'Invalid query'); // unreachable: issues are named
  return result.data;
}

function unknownMessage(unknown: string[], allowed: readonly string[]): string {
  const named = unknown.slice(0, MAX_NAMED_UNKNOWN).map((name) => quote(name, 40));
  const more = unknown.length - named.length;
  const list = named.join(', ') + (more > 0 ? ` and ${more} more` : '');
  const what = unknown.length === 1 ? 'unknown parameter' : 'unknown parameters';
  const hint = allowed.length === 0 ? 'this endpoint takes no parameters' : `allowed: ${allowed.join(', ')}`;
  return `${what} ${list} (${hint})`;
}

/** List Servers' parameters, defaults applied. */
export function parseListParams(query: string): ListParams {
  return parse(query, LIST);
}

/** Search's parameters; `q` is trimmed and at least 2 characters. */
export function parseSearchParams(query: string): SearchParams {
  return parse(query, SEARCH);
}

/** Reverse lookup's parameters: each checked alone; that exactly one is given is the handler's rule. */
export function parseLookupParams(query: string): LookupParams {
  return parse(query, LOOKUP);
}

/** Changes' parameters: `since` (a snapshot id), `limit` and `offset`. */
export function parseChangesParams(query: string): ChangesParams {
  return parse(query, CHANGES);
}

/** For endpoints without parameters (health, stats, Get Server): any parameter is unknown. */
export function assertNoParams(query: string): void {
  if (query === '') return;
  checkQuery(query);
  const unknown = new Set<string>();
  for (const [name] of new URLSearchParams(query)) unknown.add(name);
  // `?` alone, or `?&&`, gives no parameter at all: nothing to refuse.
  if (unknown.size > 0) {
    throw new ApiError('invalid_parameter', `Invalid query: ${unknownMessage([...unknown], [])}`);
  }
}
