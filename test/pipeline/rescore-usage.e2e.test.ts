/**
 * The rescore's usage: `npm run rescore -- --help` prints it and exits 0, writing nothing; it says that the
 * default output is the committed dataset in `data/` and how to write elsewhere, as docs/pipeline.md does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRescore } from '../support/rescore-run.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('npm run rescore -- --help', () => {
  it('prints the usage, saying where it writes by default and how to write elsewhere, and exits 0', async () => {
    const run = await runRescore(['--help'], { viaNpm: true, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^usage: npm run rescore -- /);
    expect(run.stdout).toMatch(/--out defaults to data, the committed dataset/);
    expect(run.stdout).toMatch(/--out <another dir> to write elsewhere/);
  }, 60_000);

  it('still refuses an unknown option with the usage and exit 2', async () => {
    const run = await runRescore(['--nope'], { timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^rescore: .*--nope[\s\S]*\nusage: npm run rescore/);
  }, 60_000);

  it('is documented: docs/pipeline.md says the default output is data/ and names --out', () => {
    const docs = readFileSync(path.join(ROOT, 'docs/pipeline.md'), 'utf8');
    expect(docs).toMatch(/By default `--out` is `data`, the committed dataset/);
    expect(docs).toContain('npm run rescore -- --help');
  });
});
