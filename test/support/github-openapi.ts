/**
 * GitHub's official OpenAPI description (`@octokit/openapi`, api.github.com, OpenAPI 3.0.3), for the stand-in:
 * the answers it sends are made from the description's own examples and checked against the response schemas
 * of the three operations the pipeline calls (and `basic-error` for errors), with ajv.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';

interface OpenApi {
  components: { schemas: Record<string, unknown>; examples: Record<string, { value: unknown }> };
}

let loaded: { doc: OpenApi; validators: Map<string, ValidateFunction> } | undefined;

function load() {
  if (loaded) return loaded;
  const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
  const doc = JSON.parse(readFileSync(file, 'utf8')) as OpenApi;
  loaded = { doc, validators: new Map() };
  return loaded;
}

/** The schema names of the answers the stand-in sends. */
export type GitHubSchemaName = 'full-repository' | 'community-profile' | 'participation-stats' | 'basic-error';

const ID = 'https://api.github.com/openapi';

let ajv: Ajv | undefined;

/** The ajv errors of `value` against `#/components/schemas/<name>` (empty: valid). */
export function gitHubSchemaErrors(name: GitHubSchemaName, value: unknown): string[] {
  const { doc, validators } = load();
  if (ajv === undefined) {
    // OpenAPI 3.0 schemas: `nullable` is ajv's own keyword; `example` and `x-*` annotate.
    ajv = new Ajv({ allErrors: true, strict: false, logger: false });
    (formats as unknown as { default: (instance: Ajv) => void }).default(ajv);
    ajv.addSchema({ $id: ID, components: { schemas: doc.components.schemas } });
  }
  let validate = validators.get(name);
  if (validate === undefined) {
    validate = ajv.getSchema(`${ID}#/components/schemas/${name}`)!;
    validators.set(name, validate);
  }
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

/** A deep copy of one of the description's examples. */
export function gitHubExample(name: string): Record<string, unknown> {
  const example = load().doc.components.examples[name];
  if (example === undefined) throw new Error(`no example ${name} in GitHub's OpenAPI description`);
  return structuredClone(example.value) as Record<string, unknown>;
}
