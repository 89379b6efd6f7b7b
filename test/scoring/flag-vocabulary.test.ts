/**
 * The flag vocabulary (`src/model/vocabulary.ts`: names, meanings, severities, what the site and the policy
 * read) and the flags the method raises are the same list: a flag the method raises that the vocabulary does
 * not define would be refused by every policy as unknown, and a defined flag nothing raises would be a rule
 * that never fires (a gate that fails open without a word).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLAGS } from '../../src/model/vocabulary.js';

const SCORING = path.resolve(import.meta.dirname, '..', '..', 'src', 'scoring');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : name.endsWith('.ts') ? [full] : [];
  });
}

/** How the method's modules raise a flag: pushed onto a record's flags, or a source's finding. */
const RAISED = [/flags\.push\('([A-Z_]+)'\)/g, /flag: '([A-Z_]+)'/g, /'(INSUFFICIENT_EVIDENCE)'/g];

function raisedFlags(texts: readonly string[]): string[] {
  const raised = new Set<string>();
  for (const text of texts)
    for (const pattern of RAISED) for (const match of text.matchAll(pattern)) raised.add(match[1]!);
  return [...raised].sort();
}

describe('the flag vocabulary', () => {
  it('defines exactly the flags the method raises', () => {
    const texts = files(SCORING).map((file) => readFileSync(file, 'utf8'));
    expect(raisedFlags(texts)).toEqual(FLAGS.map((flag) => flag.name).sort());
  });

  it('finds a raised flag the vocabulary lacks (the check above can fail)', () => {
    expect(raisedFlags(["flags.push('NEW_FLAG');", "findings.push({ flag: 'SSE_ONLY', detail })"])).toEqual([
      'NEW_FLAG',
      'SSE_ONLY',
    ]);
  });
});
