/**
 * docs/method.md states the figures of mts-2 beside the upstream method on the committed dataset, and the
 * table of every rule: both are computed here again (as `scripts/method-figures.ts` makes them) and must
 * be what the document says.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import {
  figuresMarkdown,
  methodFigures,
  passesDefaultPolicy,
  rulesMarkdown,
  withBlock,
} from '../../src/snapshot-build/method-figures.js';
import { makeRecord } from '../support/records.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DOCUMENT = path.join(ROOT, 'docs', 'method.md');
const raws = JSON.parse(readFileSync(path.join(ROOT, 'data', 'servers.json'), 'utf8')) as unknown[];

describe('docs/method.md', () => {
  it('gives the share of all committed registry servers that pass the default policy under each method, as computed', async () => {
    const figures = await methodFigures(raws, ROOT);
    expect(figures.servers).toBe(raws.length);
    // Servers whose only verified fact is a GitHub login (an io.github namespace, no repository read) are
    // short of evidence: they warn by default, never pass (test/scoring/mts2.test.ts says which they are).
    expect(figures.insufficient).toBeGreaterThan(0);
    expect(figures.insufficient).toBeLessThan(figures.servers);
    const text = readFileSync(DOCUMENT, 'utf8');
    let expected = withBlock(text, 'method-figures', figuresMarkdown(figures));
    expected = withBlock(expected, 'method-rules', rulesMarkdown());
    expected = await format(expected, { ...(await resolveConfig(DOCUMENT)), filepath: DOCUMENT });
    expect(text).toBe(expected);
  });

  it('counts a record as passing only at 40 or more, without INSUFFICIENT_EVIDENCE or a blocking flag', () => {
    expect(passesDefaultPolicy(makeRecord({ name: 'com.example/a', trust_score: 40 }))).toBe(true);
    expect(passesDefaultPolicy(makeRecord({ name: 'com.example/a', trust_score: 39 }))).toBe(false);
    expect(
      passesDefaultPolicy(makeRecord({ name: 'com.example/a', trust_score: 90, flags: ['INSUFFICIENT_EVIDENCE'] })),
    ).toBe(false);
    expect(
      passesDefaultPolicy(makeRecord({ name: 'com.example/a', trust_score: 90, flags: ['REGISTRY_TAKEDOWN'] })),
    ).toBe(false);
  });
});
