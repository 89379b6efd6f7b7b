/**
 * Where the pipeline sits: only the nightly run (`scripts/rescore.ts`) loads `src/pipeline/`; the scoring
 * arithmetic lives once, in `src/scoring/`, and the explanation reads it rather than keeping a copy. And the
 * stand-ins' own checks can fail: an answer that breaks GitHub's or the registry's schemas is caught.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitHubExample, gitHubSchemaErrors } from '../support/github-openapi.js';
import { startRegistryStandIn } from '../support/registry-standin.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : name.endsWith('.ts') ? [full] : [];
  });
}

describe('the pipeline and the scoring module', () => {
  it('is loaded by nothing outside src/pipeline/ but the rescore script', () => {
    const importers = [
      ...files(path.join(ROOT, 'src')),
      ...files(path.join(ROOT, 'scripts')),
      ...files(path.join(ROOT, 'api')),
    ]
      .filter((file) => !file.startsWith(path.join(ROOT, 'src', 'pipeline') + path.sep))
      .filter((file) => /from '[./]*(?:src\/)?pipeline\//.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(ROOT, file));
    // The rescore command, and the benchmarks that run its steps.
    expect(importers).toEqual(['scripts/bench/probes.ts', 'scripts/bench/rescore-night.ts', 'scripts/rescore.ts']);
  });

  it('keeps the method figures out of the explanation, which imports them', () => {
    const explain = readFileSync(path.join(ROOT, 'src/scoring/explain.ts'), 'utf8');
    expect(explain).toMatch(/from '\.\/subscores\.js'/);
    expect(explain).not.toMatch(/\[10000,|0\.25\]|SECRET_POINTS =|function roundHalfEven/);
  });
});

describe('the stand-ins check their own answers', () => {
  it('finds an answer that breaks GitHub’s schema', () => {
    const repository = gitHubExample('full-repository-default-response');
    delete repository.stargazers_count;
    expect(gitHubSchemaErrors('full-repository', repository).join()).toMatch(/stargazers_count/);
    expect(gitHubSchemaErrors('participation-stats', { all: ['x'], owner: [] })).not.toEqual([]);
  });

  it('finds a registry page that breaks the registry’s schema', async () => {
    const registry = await startRegistryStandIn([{ server: { name: 'io.github.a/b', version: '1' } }]);
    try {
      await fetch(`${registry.url}/v0.1/servers`).then((response) => response.text());
      expect(registry.invalid.join()).toMatch(/description/);
    } finally {
      await registry.close();
    }
  });
});
