/**
 * CI's reading of `npm audit --omit=dev --json` (scripts/lib/audit-report.ts). The fixtures in
 * test/fixtures/npm-audit/: `unreachable-405.json` and `unreachable-refused.json` are real outputs of npm
 * 11 on the development machine (its registry mirror refuses the audit endpoint; a registry on a closed
 * port); the reports are written in npm's report format, version 2, with real advisories (minimist
 * GHSA-xvch-5gv4-984h, debug GHSA-gxpj-cx7g-858c), and `no-lockfile.json` is npm's ENOLOCK error.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAuditOutput } from '../scripts/lib/audit-report.js';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', 'npm-audit', name), 'utf8');

describe('reading npm audit', () => {
  it('fails on a report with critical vulnerabilities, naming each and its advisory', () => {
    const outcome = readAuditOutput(fixture('critical.json'));
    expect(outcome.kind).toBe('vulnerable');
    if (outcome.kind !== 'vulnerable') return;
    expect(outcome.counts).toMatchObject({ critical: 2, high: 0, moderate: 1 });
    expect(outcome.findings).toEqual([
      { name: 'minimist', severity: 'critical', via: ['Prototype Pollution in minimist'] },
      { name: 'mkdirp', severity: 'critical', via: ['through minimist'] },
    ]);
  });

  it('fails on a high vulnerability as on a critical one', () => {
    const report = JSON.parse(fixture('critical.json')) as {
      vulnerabilities: Record<string, { severity: string }>;
      metadata: { vulnerabilities: Record<string, number> };
    };
    for (const entry of Object.values(report.vulnerabilities))
      if (entry.severity === 'critical') entry.severity = 'high';
    Object.assign(report.metadata.vulnerabilities, { high: 2, critical: 0 });
    expect(readAuditOutput(JSON.stringify(report)).kind).toBe('vulnerable');
  });

  it('passes a clean report, and one with a moderate vulnerability only', () => {
    expect(readAuditOutput(fixture('clean.json'))).toEqual({
      kind: 'clean',
      counts: { info: 0, low: 0, moderate: 0, high: 0, critical: 0 },
    });
    expect(readAuditOutput(fixture('moderate-only.json'))).toMatchObject({ kind: 'clean', counts: { moderate: 1 } });
  });

  it('says the service was unreachable when the audit endpoint refuses the request (405 from a mirror)', () => {
    const outcome = readAuditOutput(fixture('unreachable-405.json'));
    expect(outcome).toEqual({
      kind: 'unreachable',
      reason: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
    });
  });

  it('says the service was unreachable when the connection is refused', () => {
    expect(readAuditOutput(fixture('unreachable-refused.json')).kind).toBe('unreachable');
  });

  it('fails on any other error (no lockfile) and on output it cannot read, never passing them as clean', () => {
    expect(readAuditOutput(fixture('no-lockfile.json'))).toMatchObject({
      kind: 'unreadable',
      reason: expect.stringContaining('lockfile'),
    });
    expect(readAuditOutput('npm ERR! something').kind).toBe('unreadable');
    expect(readAuditOutput('{"auditReportVersion":3,"vulnerabilities":{}}').kind).toBe('unreadable');
    expect(
      readAuditOutput('{"message":"500 Internal Server Error - GET https://registry.npmjs.org/zod","statusCode":500}')
        .kind,
    ).toBe('unreadable');
  });
});
