/**
 * Query string → typed parameters, with the zod schemas of `src/model/schema.ts` (the only copy of the limits).
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

/** A parameter's result for one value: what the schema made of it, or its first issue's message. */
type FieldResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Values remembered per parameter (then forgotten all at once), and the longest text remembered. */
const REMEMBERED_VALUES = 256;
const REMEMBERED_MAX_LENGTH = 64;

/**
 * One parameter's schema (a member of the endpoint's object schema), with its results for the values it
 * was given lately. The schema is a pure function of the value, and the same few values come back request
 * after request (`limit=20`, `sort=name`, a score, a flag): checking each member alone and remembering its
 * results made a list's parameters a third of their cost, where the whole object's schema ran every check
 * again for every request (docs/performance.md, "Query parameters"). Free text (a search's words) is
 * checked every time and not kept.
 */
class FieldCheck {
  private readonly known = new Map<unknown, FieldResult>();

  constructor(private readonly schema: z.ZodType) {}

  check(value: unknown): FieldResult {
    const remember = typeof value !== 'string' || value.length <= REMEMBERED_MAX_LENGTH;
    if (remember) {
      const known = this.known.get(value);
      if (known !== undefined) return known;
    }
    const parsed = this.schema.safeParse(value);
    const result: FieldResult = parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, message: parsed.error.issues[0]?.message ?? 'is invalid' };
    if (remember) {
      if (this.known.size >= REMEMBERED_VALUES) this.known.clear();
      this.known.set(value, result);
    }
    return result;
  }
}

interface ParamSpec<T> {
  /** The endpoint's parameters, in the order of the specification's table, each with its member schema. */
  fields: ReadonlyMap<string, FieldCheck>;
  /** Parameters whose text must be plain decimal digits before it becomes a number. */
  integers: ReadonlySet<string>;
  /** Parameters compared in any case, lower-cased before validation. */
  lowerCased: ReadonlySet<string>;
  /** What a request with no query string means (the schema's defaults), computed on first use. */
  defaults(): T | undefined;
}

/**
 * The parameters of an endpoint: its object schema, its parameters in the order of its table (each a
 * member of the schema), which are integers, which are compared in any case. The members are checked one
 * by one, which is the object's own check: every member is independent of the others (the object has no
 * refinement of its own, as `test/gateway/params.test.ts` holds against the whole object's parse).
 */
export function spec<T>(
  schema: z.ZodType<T> & { shape: Readonly<Record<string, z.ZodType>> },
  names: readonly string[],
  integers: string[],
  lowerCased: string[],
): ParamSpec<T> {
  const fields = new Map<string, FieldCheck>();
  for (const name of names) {
    const member = schema.shape[name];
    if (member === undefined) throw new Error(`parameter ${name} is not in its endpoint's schema`);
    fields.set(name, new FieldCheck(member));
  }
  // Not at module load: a schema's first parse compiles it, which a cold start should not pay for routes
  // it has not been asked yet.
  let empty: { value: T | undefined } | undefined;
  return {
    fields,
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

  const given = new Map<string, unknown>();
  // Sets keep insertion order (the order names were given) and keep a long hostile query linear.
  let repeated: Set<string> | undefined;
  let unknown: Set<string> | undefined;
  for (const [name, value] of new URLSearchParams(query)) {
    if (!parameters.fields.has(name)) {
      (unknown ??= new Set()).add(name);
    } else if (given.has(name)) {
      (repeated ??= new Set()).add(name);
    } else if (parameters.integers.has(name)) {
      // Text that is not plain digits stays text, and the schema's number check refuses it with the
      // parameter's own message ("limit must be an integer from 1 to 200").
      given.set(name, DIGITS.test(value) ? Number(value) : value);
    } else {
      given.set(name, parameters.lowerCased.has(name) ? value.toLowerCase() : value);
    }
  }

  // Each member checked in the table's order, so the problems are named in it.
  const values: Record<string, unknown> = {};
  let messages: string[] | undefined;
  for (const [name, field] of parameters.fields) {
    if (repeated?.has(name)) {
      (messages ??= []).push(`${name} is repeated; give it once`);
      continue;
    }
    const value = given.get(name);
    const result = field.check(value);
    if (!result.ok) (messages ??= []).push(result.message);
    // An optional member not given stays absent, as the object's parse leaves it.
    else if (result.value !== undefined || given.has(name)) values[name] = result.value;
  }
  if (unknown !== undefined) (messages ??= []).push(unknownMessage([...unknown], [...parameters.fields.keys()]));
  if (messages !== undefined) {
    throw new ApiError('invalid_parameter', `Invalid query: ${messages.join('; ')}`);
  }
  // Every member's value is what its schema made of it: the object the schema's own parse would give.
  return values as T;
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
