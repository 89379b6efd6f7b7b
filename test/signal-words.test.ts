/**
 * Every sentence that cites a signal says it in words: badge evidence and the explanation of a score read one
 * table (src/model/signal-words.ts), so no text a person reads shows a field name such as `last_push_recency`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainRecord } from '../src/scoring/explain.js';
import { badgesFor } from '../src/scoring/badges.js';
import { type ServerRecord } from '../src/model/schema.js';
import { SignalsSchema } from '../src/model/record-schema.js';
import { SIGNAL_NAMES, daysSincePush, signalWords } from '../src/model/signal-words.js';

const committed = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '..', 'data', 'servers.json'), 'utf8'),
) as ServerRecord[];
const FIELD = new RegExp(`\\b(${Object.keys(SignalsSchema.shape).join('|')})\\b`);

describe('signals in words', () => {
  it('has words for every signal of the schema, in its order', () => {
    expect(SIGNAL_NAMES).toEqual(Object.keys(SignalsSchema.shape));
  });

  it('says values as people would', () => {
    expect(signalWords('last_push_recency', 1)).toBe('last push within 30 days of the scan');
    expect(signalWords('last_push_recency', 0.9)).toBe('last push about 64 days before the scan');
    expect(signalWords('last_push_recency', 0)).toBe('no push within 365 days of the scan');
    expect(signalWords('last_push_recency', null)).toBe('last push not measured');
    expect(signalWords('github_stars', 27121)).toBe('27,121 GitHub stars');
    expect(signalWords('github_stars', 1)).toBe('1 GitHub star');
    expect(signalWords('has_security_md', false)).toBe('no SECURITY.md security policy');
    expect(signalWords('secret_env_var_count', 0)).toBe('no secret environment variable');
    expect(signalWords('transport_type_risk', 25)).toBe('runs locally only (stdio)');
    expect(signalWords('transport_type_risk', 7)).toBe('transport worth 7 points');
    expect(daysSincePush(0.9)).toBe(64);
  });

  it('never shows a field name in the badge evidence or the explanation of a committed record', () => {
    const leaks: string[] = [];
    for (const record of committed) {
      for (const badge of record.badges)
        if (FIELD.test(badge.evidence)) leaks.push(`${record.name}: ${badge.evidence}`);
      const explanation = explainRecord(record);
      if (explanation === undefined) continue;
      const texts = [explanation.summary, ...explanation.subscores.flatMap((s) => s.contributions.map((c) => c.note))];
      for (const text of texts) if (FIELD.test(text)) leaks.push(`${record.name}: ${text}`);
    }
    expect(leaks.slice(0, 5)).toEqual([]);
  });

  it('gives the badge evidence of the github server in words', () => {
    const github = committed.find((record) => record.name === 'io.github.github/github-mcp-server');
    expect(badgesFor(github!.signals!).map((badge) => badge.evidence)).toEqual([
      'A licence the scoring pipeline recognises',
      'A code of conduct',
      'A repository over 90 days old when scored',
      'Last push within 30 days of the scan (the badge needs a push within about 64 days)',
      '27,121 GitHub stars (the badge needs at least 100)',
      'A registry namespace that matches the GitHub owner of the repository',
    ]);
  });
});
