/**
 * What `npm start` loads before its first answer (issue 42): the modules `scripts/serve.ts` reaches through
 * static imports, as esbuild resolves them (type-only imports erased, dynamic imports left for later). The
 * schemas of every response, the server record's validators and the scoring method are for the build, the
 * OpenAPI document, the clients and Explain Server's first ask; the bodies of Policy Check and Create Webhook
 * (their schemas, the check's verdict rules, packageurl-js and its `Intl.Collator`) for those routes' first
 * request; Reverse Lookup's package URLs for its first ask; the webhook machinery (dispatcher, receiver
 * address rules, signing) for a start with webhooks on. Each one here is a start slower by its zod schemas and
 * its code (docs/performance.md, "Issue 42"). And zod is imported as a namespace, so the bundles keep only the
 * zod they use.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The project's files `entry` reaches by static imports, relative to the root; packages left out. */
async function staticGraph(entry: string | { contents: string }): Promise<Set<string>> {
  const from: BuildOptions =
    typeof entry === 'string'
      ? { entryPoints: [entry] }
      : { stdin: { contents: entry.contents, resolveDir: ROOT, sourcefile: 'planted.ts', loader: 'ts' } };
  const result = await build({
    ...from,
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outdir: 'unused',
    logLevel: 'silent',
  });
  const inputs = result.metafile.inputs;
  const reached = new Set<string>();
  const pending = [typeof entry === 'string' ? entry : 'planted.ts'];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    for (const imported of inputs[file]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path);
    }
  }
  return reached;
}

/** Modules a start must not load before its first answer. */
const OFF_THE_START = [
  'src/api/envelope.ts',
  'src/model/record-schema.ts',
  'src/registry/schema.ts',
  // Policy Check: its body schema and verdict rules; package URLs (packageurl-js).
  'src/model/check.ts',
  'src/model/policy.ts',
  'src/model/purl.ts',
  'src/model/unknown-identifier.ts',
  'src/api/handlers/check.ts',
];

/**
 * What of `src/scoring/` and `src/notify/` a start may load: the method versions the snapshot's meta names;
 * the webhook routes' documented limits, their refusals, and the lines printed about the settings.
 */
const ALLOWED_IN = {
  'src/scoring/': ['src/scoring/methods.ts'],
  'src/notify/': ['src/notify/errors.ts', 'src/notify/subscription-limits.ts', 'src/notify/warnings.ts'],
};

/** The files of `reached` a start must not load, sorted. */
function loadedTooSoon(reached: ReadonlySet<string>): string[] {
  return [...reached]
    .filter(
      (file) =>
        OFF_THE_START.includes(file) ||
        Object.entries(ALLOWED_IN).some(([folder, allowed]) => file.startsWith(folder) && !allowed.includes(file)),
    )
    .sort();
}

describe("npm start's static imports", () => {
  it('reach the route table and the Get Server handler, and none of what the first answer does not need', async () => {
    const reached = await staticGraph('scripts/serve.ts');
    // The walk finds what the server does load: a graph that came back empty would pass the rest.
    expect(reached).toContain('src/api/routes.ts');
    expect(reached).toContain('src/api/key-request.ts');
    expect(reached).toContain('src/api/webhook-routes.ts');
    expect(reached).toContain('src/scoring/methods.ts');
    expect(loadedTooSoon(reached)).toEqual([]);
  });

  it('finds a body schema, the webhook machinery or the scoring method imported at start (the check can fail)', async () => {
    const reached = await staticGraph({
      contents: [
        "import './scripts/serve.ts';",
        "import { CheckRequestSchema } from './src/model/check.ts';",
        "import { createNotifications } from './src/notify/service.ts';",
        "import { explainRecord } from './src/scoring/explain.ts';",
        'console.log(CheckRequestSchema, createNotifications, explainRecord);',
      ].join('\n'),
    });
    const found = loadedTooSoon(reached);
    for (const file of [
      'src/model/check.ts',
      'src/model/policy.ts',
      'src/model/purl.ts',
      'src/notify/service.ts',
      'src/notify/dispatcher.ts',
      'src/notify/address-filter.ts',
      'src/scoring/explain.ts',
    ]) {
      expect(found).toContain(file);
    }
  });
});

/**
 * The files (of `texts`, path → text) that import zod's `z` by name. That `z` is zod's whole namespace as one
 * value, so esbuild keeps all of zod in a bundle that imports it (every check, the JSON Schema converters);
 * `import * as z from 'zod'` lets it keep what the code uses. Type-only imports are erased and do not count.
 */
function namedZodImports(texts: ReadonlyMap<string, string>): string[] {
  return [...texts]
    .filter(([, text]) => /^import\s*\{\s*z\s*\}\s*from\s*['"]zod['"]/m.test(text))
    .map(([file]) => file)
    .sort();
}

describe("zod in npm start's bundle and the Vercel function's", () => {
  it('is imported as a namespace everywhere, so the bundle keeps only the zod the code uses', () => {
    const files = fg.sync(['src/**/*.ts', 'scripts/**/*.ts', 'api/**/*.ts'], { cwd: ROOT, ignore: ['**/*.test.ts'] });
    const texts = new Map(files.map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')]));
    // The scan reads the files that do use zod: an empty list would pass the rest.
    expect([...texts.values()].filter((text) => text.includes("import * as z from 'zod';")).length).toBeGreaterThan(50);
    expect(namedZodImports(texts)).toEqual([]);
  });

  it('finds an import of z by name (the check can fail)', () => {
    const texts = new Map([
      ['src/named.ts', "import { z } from 'zod';\nexport const s = z.string();\n"],
      ['src/namespace.ts', "import * as z from 'zod';\nexport const s = z.string();\n"],
      ['src/types.ts', "import type { z } from 'zod';\nexport type S = z.infer<z.ZodString>;\n"],
    ]);
    expect(namedZodImports(texts)).toEqual(['src/named.ts']);
  });
});
