/**
 * OSV's published API description (`test/fixtures/osv/osv_service_v1.swagger.json`, cut from google/osv.dev's
 * `docs/osv_service_v1.swagger.json`), for the stand-in: every answer it sends and every query it is sent is
 * checked against the description's definitions with ajv. The description names fields in protocol buffers'
 * JSON form (`nextPageToken`) while the service speaks their proto names (`next_page_token`), as its API
 * documentation shows; a value's members are mapped to the description's names before the check, and every
 * object the description defines is checked closed, so a member it does not name fails.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';

const FILE = path.resolve(import.meta.dirname, '..', 'fixtures', 'osv', 'osv_service_v1.swagger.json');

export type OsvDefinition = 'v1BatchQuery' | 'v1BatchVulnerabilityList' | 'osvVulnerability' | 'rpcStatus';

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The value with every member named as the description names it (free JSON objects are left as they are). */
function described(value: unknown, free = false): unknown {
  if (Array.isArray(value)) return value.map((item) => described(item));
  if (value === null || typeof value !== 'object' || free) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const name = camel(key);
      return [name, described(item, name === 'databaseSpecific' || name === 'ecosystemSpecific')];
    }),
  );
}

let validators: Map<OsvDefinition, ValidateFunction> | undefined;

function load(): Map<OsvDefinition, ValidateFunction> {
  if (validators) return validators;
  const doc = JSON.parse(readFileSync(FILE, 'utf8')) as { definitions: Record<string, Record<string, unknown>> };
  const definitions = Object.fromEntries(
    Object.entries(doc.definitions).map(([name, schema]) => [
      name,
      schema.properties === undefined ? schema : { ...schema, additionalProperties: false },
    ]),
  );
  // Swagger 2.0 schemas: `format: byte` and `int32` are annotations here.
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false, validateFormats: false });
  ajv.addSchema({ $id: 'osv', definitions });
  validators = new Map();
  for (const name of ['v1BatchQuery', 'v1BatchVulnerabilityList', 'osvVulnerability', 'rpcStatus'] as const) {
    validators.set(name, ajv.getSchema(`osv#/definitions/${name}`)!);
  }
  return validators;
}

/** The errors of `value` (as the service writes it) against the description's definition `name` (empty: valid). */
export function osvSchemaErrors(name: OsvDefinition, value: unknown): string[] {
  const validate = load().get(name)!;
  return validate(described(value)) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
