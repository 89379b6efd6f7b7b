/**
 * The default policy users can keep on, and what a policy may say: `judge` on hand-made records (the rules are
 * pure, so the gateway, the offline checker and the Action share them).
 */
import { describe, expect, it } from 'vitest';
import { describePolicy, judge, PolicySchema, reasonKind, type Policy } from '../../src/model/check.js';
import type { Evidence } from '../../src/model/evidence.js';
import type { ServerRecord } from '../../src/model/schema.js';
import { makeRecord } from '../support/records.js';

const DEFAULT: Policy = PolicySchema.parse({});
const STRICT: Policy = PolicySchema.parse({ strict: true });
const TODAY = '2026-11-28';

const measured = { measured: true, at: '2026-02-21T00:00:00Z', by: 'test', third_party: true, signals: {} } as const;
const unmeasured = (missing: string) => ({ measured: false, missing, signals: {} }) as const;

function evidence(confidence: number): Evidence {
  return {
    method: 'mts-2',
    confidence,
    sources: {
      registry: measured,
      repository: unmeasured('no repository in the registry entry'),
      packages: unmeasured('package registries were not read'),
      probe: unmeasured('the remote was not probed'),
      advisories: unmeasured('advisory databases were not read'),
    },
  };
}

const record = (name: string, score: number, flags: string[] = [], extra: Partial<ServerRecord> = {}) =>
  makeRecord({ name, trust_score: score, trust_label: labelOf(score), flags, ...extra });
function labelOf(score: number): ServerRecord['trust_label'] {
  if (score >= 80) return 'High Trust';
  if (score >= 60) return 'Moderate Trust';
  if (score >= 40) return 'Low Trust';
  return score >= 20 ? 'Very Low Trust' : 'Unknown/Suspicious';
}

describe('the default policy', () => {
  it('warns on a server that matches no scored server, and fails it when strict', () => {
    const item = { package: 'npm:invented-mcp-package-xyz' };
    expect(judge(item, [], DEFAULT, TODAY).verdict).toBe('warn');
    const strict = judge(item, [], STRICT, TODAY);
    expect(strict.verdict).toBe('fail');
    expect(strict.reasons[0]).toMatch(/treats unknown servers as "fail" \(strict\)$/);
  });

  it('warns on a score resting on too little evidence, saying what is missing, and fails it when strict', () => {
    const thin = record('com.example/thin', 30, ['INSUFFICIENT_EVIDENCE'], { evidence: evidence(35) });
    const result = judge('com.example/thin', [thin], DEFAULT, TODAY);
    expect(result.verdict).toBe('warn');
    expect(result.reasons).toHaveLength(1);
    expect(result.reasons[0]).toContain('repository: no repository in the registry entry');
    expect(result.reasons[0]).toContain('confidence 35 of 100');
    expect(reasonKind(result.reasons[0]!)).toBe('insufficient-evidence');
    const strict = judge('com.example/thin', [thin], STRICT, TODAY);
    expect(strict.verdict).toBe('fail');
    expect(strict.reasons.map(reasonKind)).toEqual(['below-min-score', 'insufficient-evidence']);
  });

  it('fails a measured score below 40 and passes 40', () => {
    expect(judge('a.b/low', [record('a.b/low', 39)], DEFAULT, TODAY).verdict).toBe('fail');
    expect(judge('a.b/ok', [record('a.b/ok', 40)], DEFAULT, TODAY).verdict).toBe('pass');
  });

  it('fails a blocking flag under every policy, allow lists and exceptions included', () => {
    const bad = record('a.b/bad', 0, ['KNOWN_MALICIOUS']);
    const lenient = PolicySchema.parse({
      min_score: 0,
      allow: ['a.b/bad'],
      exceptions: [{ server: 'a.b/bad', reason: 'we reviewed it', until: '2099-01-01' }],
    });
    for (const policy of [DEFAULT, STRICT, lenient]) {
      const result = judge('a.b/bad', [bad], policy, TODAY);
      expect(result.verdict).toBe('fail');
      expect(reasonKind(result.reasons[0]!)).toBe('blocking-flag');
    }
  });

  it('fails a vulnerable version and warns on live evidence unless the policy denies it', () => {
    expect(judge('a.b/v', [record('a.b/v', 90, ['VULNERABLE_VERSION'])], DEFAULT, TODAY).verdict).toBe('fail');
    const down = record('a.b/down', 70, ['REMOTE_UNREACHABLE']);
    const warned = judge('a.b/down', [down], DEFAULT, TODAY);
    expect(warned.verdict).toBe('warn');
    expect(warned.reasons[0]).toMatch(/^carries the flag REMOTE_UNREACHABLE \(.*\); the policy warns$/);
    const denied = PolicySchema.parse({ deny_flags: ['REMOTE_UNREACHABLE'] });
    expect(judge('a.b/down', [down], denied, TODAY).verdict).toBe('fail');
  });
});

describe('allow lists and exceptions', () => {
  const weather = record('org.sample/weather', 20, [], {
    packages: [{ registry_type: 'npm', identifier: '@sample/weather-mcp', version: '1.0.0' }],
    remotes: [{ type: 'streamable-http', url: 'https://weather.sample.org/mcp' }],
  });

  it('allows by name, package, package URL or remote URL, matching the record the item resolved to', () => {
    for (const allow of [
      'org.sample/weather',
      'npm:@sample/weather-mcp',
      'pkg:npm/%40sample/weather-mcp',
      'https://WEATHER.sample.org/mcp/',
    ]) {
      const policy = PolicySchema.parse({ allow: [allow] });
      expect(judge('org.sample/weather', [weather], policy, TODAY).verdict, allow).toBe('pass');
    }
    const unknown = PolicySchema.parse({ allow: ['npm:in-house-mcp'], strict: true });
    expect(judge({ package: 'npm:in-house-mcp' }, [], unknown, TODAY).verdict).toBe('pass');
  });

  it('applies an exception through its date, then says it expired and judges as if it were not there', () => {
    const policy = PolicySchema.parse({
      exceptions: [
        { package: 'npm:@sample/weather-mcp', reason: 'vendor contract, review in Q4', until: '2026-11-28' },
      ],
    });
    const inForce = judge('org.sample/weather', [weather], policy, '2026-11-28');
    expect(inForce.verdict).toBe('pass');
    expect(inForce.reasons).toEqual(['excepted until 2026-11-28 by the policy: vendor contract, review in Q4']);
    const expired = judge('org.sample/weather', [weather], policy, '2026-11-29');
    expect(expired.verdict).toBe('fail');
    expect(expired.reasons.map(reasonKind)).toEqual(['below-min-score', 'expired-exception']);
    expect(expired.reasons[1]).toBe(
      'the exception for npm:@sample/weather-mcp expired on 2026-11-28 (vendor contract, review in Q4); it no longer applies',
    );
  });
});

describe('the policy in words', () => {
  it('says which exceptions have expired, whether or not a server of the configuration is the one excepted', () => {
    const policy = PolicySchema.parse({
      exceptions: [
        { server: 'org.sample/old', reason: 'pilot', until: '2026-11-27' },
        { url: 'https://mcp.sample.org/mcp', reason: 'vendor review', until: '2026-11-28' },
      ],
    });
    const text = describePolicy(policy, '2026-11-28');
    expect(text).toContain('except org.sample/old until 2026-11-27 (pilot; expired, no longer applies)');
    expect(text).toContain('except https://mcp.sample.org/mcp until 2026-11-28 (vendor review)');
    expect(describePolicy(policy, '2026-11-29')).toContain('(vendor review; expired, no longer applies)');
  });

  it('names the blocking flags, the failing and the warning ones, and what strict changes', () => {
    const text = describePolicy(DEFAULT, TODAY);
    expect(text).toContain('KNOWN_MALICIOUS, REGISTRY_TAKEDOWN (always, allow lists and exceptions included)');
    expect(text).toContain('or VULNERABLE_VERSION');
    expect(text).toContain('warn on REMOTE_UNREACHABLE, TOOL_INSTRUCTIONS, TOOLS_CHANGED, DEPRECATED');
    expect(text).toContain(
      'warn on a server that matches no scored server; warn on a server with insufficient evidence',
    );
    const strict = describePolicy(STRICT, TODAY);
    expect(strict).toContain('fail a server that matches no scored server; fail a server with insufficient evidence');
    const denied = describePolicy(PolicySchema.parse({ deny_flags: ['DEPRECATED'] }), TODAY);
    expect(denied).toContain(
      'fail a server carrying DEPRECATED; warn on REMOTE_UNREACHABLE, TOOL_INSTRUCTIONS, TOOLS_CHANGED;',
    );
  });
});

describe('the policy schema', () => {
  it.each([
    [{ exceptions: [{ server: 'a.b/c', until: '2026-12-31' }] }, /every exception needs a reason/],
    [{ exceptions: [{ server: 'a.b/c', reason: 'x', until: '31/12/2026' }] }, /until must be a date/],
    [{ exceptions: [{ server: 'a.b/c', url: 'https://x.y', reason: 'x', until: '2026-12-31' }] }, /exactly one of/],
    [{ allow: ['not a name'] }, /is not a server name/],
    [{ strict: true, unknown: 'pass' }, /strict makes unknown servers fail/],
    [{ min_score: 40, colour: 'red' }, /colour/],
  ])('refuses %j', (policy, message) => {
    const parsed = PolicySchema.safeParse(policy);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(message);
  });
});
