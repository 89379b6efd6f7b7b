/**
 * The packages source: readings from the package facts file (as the packages step writes it), for a record's
 * npm, PyPI and crates.io packages; the findings npm's takedown and a deprecation raise, and what mts-2 makes
 * of them through the source's rules (a takedown is blocking: score 0). A file that is not the documented
 * shape fails the build's load; no file means every record says the registries were not read.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PackageFacts, PackageFactsFile } from '../../src/model/package-facts.js';
import type { ServerRecord } from '../../src/model/schema.js';
import { scoreReadings } from '../../src/scoring/mts2.js';
import { PACKAGES_RULES, packagesSource, packagesSourceOf } from '../../src/scoring/sources/packages.js';
import { makeTempDir } from '../support/temp.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const base = (JSON.parse(readFileSync(path.join(ROOT, 'data/servers.json'), 'utf8')) as ServerRecord[])[0]!;
const READ_AT = '2026-06-01T00:00:00.000Z';

function record(
  packages: ServerRecord['packages'],
  repoUrl: string | null = 'https://github.com/acme/tool',
): ServerRecord {
  return { ...structuredClone(base), packages, install: { ...base.install, repo_url: repoUrl } };
}

function facts(
  registry: PackageFacts['registry_type'],
  identifier: string,
  extra: Partial<PackageFacts> = {},
): PackageFacts {
  return {
    registry_type: registry,
    identifier,
    read_at: READ_AT,
    source: 'registry.npmjs.org API',
    found: true,
    repository_url: 'https://github.com/acme/tool',
    latest_version: '1.0.0',
    latest_published_at: '2026-05-02T00:00:00.000Z',
    versions_past_year: 3,
    maintainers: 1,
    deprecated: null,
    provenance: registry === 'npm' ? true : null,
    yanked: registry === 'npm' ? null : false,
    security_takedown: false,
    ...extra,
  };
}

const file = (...all: PackageFacts[]): PackageFactsFile => ({
  generated_at: READ_AT,
  packages: Object.fromEntries(all.map((f) => [`${f.registry_type}:${f.identifier}`, f])),
  unread: [],
});

const npm = (identifier: string) => ({ registry_type: 'npm', identifier, version: '1.0.0' });

describe('the packages source', () => {
  it('measures repository agreement, provenance and the days since the newest release', () => {
    const reading = packagesSourceOf(file(facts('npm', 'tool'), facts('pypi', 'tool'))).read({
      record: record([npm('tool'), { registry_type: 'pypi', identifier: 'Tool', version: null }]),
    });
    expect(reading.state).toMatchObject({ measured: true, at: READ_AT, missing: null });
    expect(reading.signals.package_repository_agrees!.value).toBe(true);
    expect(reading.signals.package_provenance!.value).toBe(true);
    expect(reading.signals.package_days_since_release!.value).toBe(30);
    expect(reading.findings).toEqual([]);
    const outcome = scoreReadings([reading], PACKAGES_RULES);
    expect(outcome.scores.provenance).toBe(100);
    expect(outcome.scores.maintenance).toBe(100);
  });

  it('says a package that names another repository, or lacks provenance, does not agree', () => {
    const reading = packagesSourceOf(
      file(facts('npm', 'tool', { repository_url: 'https://github.com/someone-else/tool', provenance: false })),
    ).read({ record: record([npm('tool@1.0.0')]) });
    expect(reading.signals.package_repository_agrees!.value).toBe(false);
    expect(reading.signals.package_provenance!.value).toBe(false);
  });

  it('raises REGISTRY_TAKEDOWN for npm’s security holding package, which makes the score 0', () => {
    const reading = packagesSourceOf(
      file(facts('npm', 'evil', { security_takedown: true, latest_version: '0.0.1-security' })),
    ).read({ record: record([npm('evil')]) });
    expect(reading.findings.map((f) => f.flag)).toEqual(['REGISTRY_TAKEDOWN']);
    const outcome = scoreReadings([reading], PACKAGES_RULES);
    expect(outcome.trust_score).toBe(0);
    expect(outcome.blocking).toHaveLength(1);
  });

  it('raises DEPRECATED for a deprecated package', () => {
    const reading = packagesSourceOf(file(facts('npm', 'old', { deprecated: 'use new' }))).read({
      record: record([npm('old')]),
    });
    expect(reading.findings).toEqual([{ flag: 'DEPRECATED', detail: 'npm marks old deprecated' }]);
  });

  it('says why it measured nothing: no file, no package it reads, packages not read that night', () => {
    expect(packagesSourceOf(undefined).read({ record: record([npm('tool')]) }).state.missing).toMatch(/not read/);
    const none = packagesSourceOf(file()).read({
      record: record([{ registry_type: 'nuget', identifier: 'X.Y', version: null }]),
    });
    expect(none.state.missing).toMatch(/no npm, PyPI, crates\.io or OCI package/);
    // Neither a snapshot without package evidence nor a server without a package lists a signal: the rules take
    // no part, so the committed snapshot's scores and confidences are what they were.
    expect(none.signals).toEqual({});
    expect(packagesSourceOf(undefined).read({ record: record([npm('tool')]) }).signals).toEqual({});
    const unread = packagesSourceOf(file()).read({ record: record([npm('tool')]) });
    expect(unread.state.measured).toBe(false);
    expect(Object.values(unread.signals).every((s) => s.value === null && s.missing !== null)).toBe(true);
  });

  it('loads the committed file’s shape and refuses another', async () => {
    const dir = await makeTempDir('packages-source-');
    expect((await packagesSource({ evidenceDir: dir })).read({ record: record([npm('tool')]) }).state.measured).toBe(
      false,
    );
    writeFileSync(path.join(dir, 'packages.json'), JSON.stringify(file(facts('npm', 'tool'))));
    expect((await packagesSource({ evidenceDir: dir })).read({ record: record([npm('tool')]) }).state.measured).toBe(
      true,
    );
    writeFileSync(path.join(dir, 'packages.json'), JSON.stringify({ generated_at: 'yesterday', packages: {} }));
    await expect(packagesSource({ evidenceDir: dir })).rejects.toThrow(/packages\.json: not the documented shape: /);
  });
});
