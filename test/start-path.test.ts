/**
 * What `npm start` loads before its first answer (issue 42): the modules `scripts/serve.ts` reaches through
 * static imports, as esbuild resolves them (type-only imports erased, dynamic imports left for later). The
 * schemas of every response, the server record's validators and the scoring method are for the build, the
 * OpenAPI document, the clients and Explain Server's first ask: each one here is a start slower by its zod
 * schemas (docs/performance.md, "Issue 42").
 */
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The project's files `entry` reaches by static imports, relative to the root; packages left out. */
async function staticGraph(entry: string): Promise<Set<string>> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
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
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    for (const imported of inputs[file]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path);
    }
  }
  return reached;
}

describe("npm start's static imports", () => {
  it('reach the route table and the Get Server handler, and none of what the first answer does not need', async () => {
    const reached = await staticGraph('scripts/serve.ts');
    // The walk finds what the server does load: a graph that came back empty would pass the rest.
    expect(reached).toContain('src/api/routes.ts');
    expect(reached).toContain('src/api/key-request.ts');
    for (const file of ['src/api/envelope.ts', 'src/model/record-schema.ts', 'src/registry/schema.ts']) {
      expect(reached, file).not.toContain(file);
    }
    // The method's scoring (Explain Server imports it on its first ask); `scoring/methods.ts`, the method
    // versions the snapshot's meta names, is all of scoring/ a start needs.
    expect([...reached].filter((file) => file.startsWith('src/scoring/'))).toEqual(['src/scoring/methods.ts']);
    expect(reached).not.toContain('src/scoring/mts2-sources.ts');
  });
});
