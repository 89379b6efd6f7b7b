import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { itemForEntry } from '../../src/cli/entries.js';
import { itemAdvisoryFindings } from '../../src/model/advisory-check.js';
import { AdvisoryIndex } from '../../src/model/advisory-match.js';
import { AdvisoryFileSchema } from '../../src/model/advisories.js';
import { type CheckItem, DEFAULT_POLICY, judge, PolicySchema, reasonKind } from '../../src/model/check.js';
import { pinnedPackage } from '../../src/model/identifiers.js';
import { makeRecord } from '../support/records.js';

const committed = AdvisoryFileSchema.parse(
  JSON.parse(readFileSync(new URL('../../data/evidence/advisories.json', import.meta.url), 'utf8')),
);
const index = new AdvisoryIndex(committed.advisories);
const policy = PolicySchema.parse({});

/** The item a configuration entry runs, checked the way the checker checks it. */
function verdictOf(command: string, args: string[], matches = [] as ReturnType<typeof makeRecord>[], over = {}) {
  const entry = itemForEntry({ file: 'mcp.json', name: 'server', line: 1, command, args });
  if (!entry.ok) throw new Error(entry.reason);
  const item: CheckItem = entry.item;
  return judge(item, matches, { ...policy, ...over }, itemAdvisoryFindings(item, index));
}

describe('the version a configuration pins', () => {
  it('is read from npm, PyPI and OCI references, and a tag or range pins nothing', () => {
    expect(pinnedPackage('npm:@antv/mcp-server-chart@0.11.10')).toEqual({
      registry_type: 'npm',
      name: '@antv/mcp-server-chart',
      version: '0.11.10',
    });
    expect(pinnedPackage('npm:postmark-mcp@latest')?.version).toBeNull();
    expect(pinnedPackage('npm:postmark-mcp@^1.0.0')?.version).toBeNull();
    expect(pinnedPackage('npm:postmark-mcp')?.version).toBeNull();
    expect(pinnedPackage('pypi:mcp-runcmd-server==2.0')).toEqual({
      registry_type: 'pypi',
      name: 'mcp-runcmd-server',
      version: '2.0',
    });
    expect(pinnedPackage('pypi:mcp-runcmd-server>=2.0')?.version).toBeNull();
    expect(pinnedPackage('oci:ghcr.io/acme/server:1.4.0')).toEqual({
      registry_type: 'oci',
      name: 'ghcr.io/acme/server',
      version: '1.4.0',
    });
    expect(pinnedPackage('oci:localhost:5000/server@sha256:abc')?.version).toBe('sha256:abc');
    expect(pinnedPackage('oci:localhost:5000/server')?.version).toBeNull();
  });
});

describe('a check of a configuration with advisories', () => {
  it('fails a compromised version pinned with npx and passes the release before it', () => {
    const record = makeRecord({ name: 'io.github.antvis/mcp-server-chart', trust_score: 80 });
    const compromised = verdictOf('npx', ['-y', '@antv/mcp-server-chart@0.11.10'], [record]);
    expect(compromised.verdict).toBe('fail');
    expect(compromised.reasons[0]).toMatch(/^advisory KNOWN_MALICIOUS: .*MAL-2026-4069/);
    expect(reasonKind(compromised.reasons[0]!)).toBe('advisory');
    expect(verdictOf('npx', ['-y', '@antv/mcp-server-chart@0.11.11'], [record]).verdict).toBe('pass');
  });

  it('fails a known-malicious package that no scored server matches, whatever the policy says of unknowns', () => {
    const result = verdictOf('npx', ['-y', 'postmark-mcp'], [], { unknown: 'pass' });
    expect(result).toMatchObject({ server: null, verdict: 'fail' });
    expect(result.reasons[0]).toContain('MAL-2025-47604');
    expect(verdictOf('uvx', ['mcp-runcmd-server==1.0'], [], { unknown: 'pass' }).verdict).toBe('fail');
  });

  it('fails a known-malicious package even on the allow list', () => {
    const record = makeRecord({ name: 'io.example/postmark', trust_score: 90 });
    const result = verdictOf('npx', ['postmark-mcp@1.0.16'], [record], { allow: ['io.example/postmark'] });
    expect(result.verdict).toBe('fail');
  });

  it('fails a vulnerable pinned version where the policy denies VULNERABLE_VERSION, and not the fixed one', () => {
    const record = makeRecord({ name: 'io.github.geelen/mcp-remote', trust_score: 80 });
    const deny = { deny_flags: ['VULNERABLE_VERSION'] };
    const entry = (version: string) =>
      judge(
        { package: `npm:mcp-remote@${version}` },
        [record],
        { ...policy, ...deny },
        itemAdvisoryFindings({ package: `npm:mcp-remote@${version}` }, index),
      );
    const vulnerable = entry('0.1.15');
    expect(vulnerable.verdict).toBe('fail');
    expect(vulnerable.reasons[0]).toContain('GHSA-6xpm-ggf7-wc3p / CVE-2025-6514; fixed in 0.1.16');
    expect(entry('0.1.16').verdict).toBe('pass');
  });

  it('leaves a check with no advisories for its package as it was', () => {
    const record = makeRecord({ name: 'io.example/fine', trust_score: DEFAULT_POLICY.min_score + 10 });
    const item: CheckItem = { package: 'npm:some-fine-server@1.0.0' };
    expect(itemAdvisoryFindings(item, index)).toEqual([]);
    expect(judge(item, [record], policy, [])).toEqual(judge(item, [record], policy));
  });
});
