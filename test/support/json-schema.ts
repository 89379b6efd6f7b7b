/* eslint-disable @typescript-eslint/no-explicit-any -- walks arbitrary JSON Schema documents */
/**
 * A small JSON Schema (draft 2020-12) validator for the tests: enough of the vocabulary to check real
 * responses against the schemas of `public/openapi.json`, and strict about the rest.
 *
 * Why not a library: none is a direct dependency (ajv is only a transitive one), and zod's
 * `z.fromJSONSchema` compiles `pattern` without the `u` flag, so the server-name pattern (`\p{Cc}`) would
 * refuse valid names. Why it can be trusted: any keyword it does not implement throws instead of being
 * skipped, so a schema can never pass for lack of checking; its own tests are in test/openapi.test.ts.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = boolean | Record<string, unknown>;

/** Keywords that only annotate: they never make an instance invalid. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);

const HANDLED = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
]);

/** Formats checked; any other `format` throws (an assertion we cannot make must not pass silently). */
const FORMATS: Record<string, (value: string) => boolean> = {
  'date-time': (value) =>
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/i.test(value) && !Number.isNaN(Date.parse(value)),
  uri: (value) => {
    try {
      return new URL(value).protocol.length > 1;
    } catch {
      return false;
    }
  },
};

function typeOf(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function hasType(value: Json, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/** JSON equality, member order ignored (as `enum` and `const` compare). */
function deepEqual(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

function pointer(root: unknown, ref: string): Schema {
  if (!ref.startsWith('#')) throw new Error(`only local $refs are supported, not ${ref}`);
  let node: unknown = root;
  for (const raw of ref
    .slice(1)
    .split('/')
    .filter((part) => part !== '')) {
    const part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part))
      throw new Error(`$ref ${ref} does not resolve`);
    node = (node as Record<string, unknown>)[part];
  }
  return node as Schema;
}

/**
 * The problems of `value` against `schema`, each as `<path>: <what>`; empty when valid. `root` is the
 * document `$ref`s point into (the OpenAPI document). Throws on a keyword it does not implement.
 */
export function validate(schema: Schema, value: unknown, root: unknown = schema, path = '$'): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: no value is allowed here`];
  const json = value as Json;
  const problems: string[] = [];
  for (const keyword of Object.keys(schema)) {
    if (!HANDLED.has(keyword) && !ANNOTATIONS.has(keyword))
      throw new Error(`unsupported JSON Schema keyword "${keyword}" at ${path}`);
  }
  const s = schema as Record<string, any>;

  if (typeof s.$ref === 'string') problems.push(...validate(pointer(root, s.$ref), json, root, path));
  if (s.type !== undefined) {
    const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((type) => hasType(json, type))) {
      return [...problems, `${path}: expected ${types.join(' or ')}, got ${typeOf(json)}`];
    }
  }
  if (s.enum !== undefined && !(s.enum as unknown[]).some((option) => deepEqual(option, json))) {
    problems.push(`${path}: ${JSON.stringify(json)} is not one of ${JSON.stringify(s.enum)}`);
  }
  if (Object.hasOwn(s, 'const') && !deepEqual(s.const, json)) {
    problems.push(`${path}: expected ${JSON.stringify(s.const)}, got ${JSON.stringify(json)}`);
  }

  if (typeof json === 'number') {
    if (s.minimum !== undefined && json < s.minimum)
      problems.push(`${path}: ${json} is below the minimum ${s.minimum}`);
    if (s.maximum !== undefined && json > s.maximum)
      problems.push(`${path}: ${json} is above the maximum ${s.maximum}`);
    if (s.exclusiveMinimum !== undefined && json <= s.exclusiveMinimum)
      problems.push(`${path}: ${json} is not above ${s.exclusiveMinimum}`);
    if (s.exclusiveMaximum !== undefined && json >= s.exclusiveMaximum)
      problems.push(`${path}: ${json} is not below ${s.exclusiveMaximum}`);
  }

  if (typeof json === 'string') {
    const length = [...json].length; // JSON Schema counts code points, not UTF-16 units
    if (s.minLength !== undefined && length < s.minLength)
      problems.push(`${path}: shorter than ${s.minLength} characters`);
    if (s.maxLength !== undefined && length > s.maxLength)
      problems.push(`${path}: longer than ${s.maxLength} characters`);
    // ECMA-262 with Unicode semantics, as JSON Schema asks (`\p{...}` needs the u flag).
    if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(json))
      problems.push(`${path}: ${JSON.stringify(json)} does not match ${s.pattern}`);
    if (s.format !== undefined) {
      const check = FORMATS[s.format as string];
      if (check === undefined) throw new Error(`unsupported format "${s.format}" at ${path}`);
      if (!check(json)) problems.push(`${path}: ${JSON.stringify(json)} is not a valid ${s.format}`);
    }
  }

  if (Array.isArray(json)) {
    if (s.minItems !== undefined && json.length < s.minItems) problems.push(`${path}: fewer than ${s.minItems} items`);
    if (s.maxItems !== undefined && json.length > s.maxItems) problems.push(`${path}: more than ${s.maxItems} items`);
    if (s.items !== undefined)
      json.forEach((item, index) => problems.push(...validate(s.items, item, root, `${path}[${index}]`)));
  }

  if (typeOf(json) === 'object') {
    const object = json as Record<string, Json>;
    const properties: Record<string, Schema> = s.properties ?? {};
    for (const name of (s.required as string[] | undefined) ?? []) {
      if (!Object.hasOwn(object, name)) problems.push(`${path}: missing required member "${name}"`);
    }
    for (const [name, member] of Object.entries(object)) {
      const memberPath = `${path}.${name}`;
      if (s.propertyNames !== undefined)
        problems.push(...validate(s.propertyNames, name, root, `${memberPath} (name)`));
      if (Object.hasOwn(properties, name))
        problems.push(...validate(properties[name] as Schema, member, root, memberPath));
      else if (s.additionalProperties !== undefined) {
        if (s.additionalProperties === false) problems.push(`${path}: unexpected member "${name}"`);
        else problems.push(...validate(s.additionalProperties, member, root, memberPath));
      }
    }
  }

  if (s.allOf !== undefined) for (const part of s.allOf as Schema[]) problems.push(...validate(part, json, root, path));
  if (s.anyOf !== undefined && !(s.anyOf as Schema[]).some((part) => validate(part, json, root, path).length === 0)) {
    problems.push(`${path}: matches none of anyOf`);
  }
  if (s.oneOf !== undefined) {
    const matching = (s.oneOf as Schema[]).filter((part) => validate(part, json, root, path).length === 0).length;
    if (matching !== 1) problems.push(`${path}: matches ${matching} of oneOf, not exactly 1`);
  }
  if (s.not !== undefined && validate(s.not, json, root, path).length === 0) problems.push(`${path}: matches "not"`);
  return problems;
}
