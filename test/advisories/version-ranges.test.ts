import { describe, expect, it } from 'vitest';
import {
  type AffectedPackage,
  type AffectedRange,
  affects,
  compareNuGet,
  comparePep440,
  compareSemVer,
  fixedVersion,
  inRange,
} from '../../src/model/version-ranges.js';
import { compareVersions } from '../../src/model/versions.js';
import { isAffected } from '../../src/model/advisories.js';

describe('SemVer 2.0 precedence', () => {
  it('orders the specification example chain strictly', () => {
    const chain = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '2.0.0',
      '2.1.0',
      '2.1.1',
      '10.0.0',
    ];
    for (let i = 0; i < chain.length - 1; i++) {
      expect(compareSemVer(chain[i]!, chain[i + 1]!)).toBe(-1);
      expect(compareSemVer(chain[i + 1]!, chain[i]!)).toBe(1);
    }
  });

  it('ignores build metadata and reads a leading v', () => {
    expect(compareSemVer('1.0.0+build.5', '1.0.0')).toBe(0);
    expect(compareSemVer('v1.2.3', '1.2.3')).toBe(0);
  });

  it('compares numbers beyond the safe integer range exactly', () => {
    expect(compareSemVer('1.0.9007199254740993', '1.0.9007199254740992')).toBe(1);
  });

  it('refuses what is not SemVer', () => {
    for (const bad of ['1.0', '01.0.0', '1.0.0-01', 'latest', '', '1.0.0-']) {
      expect(compareSemVer(bad, '1.0.0')).toBeNull();
    }
  });
});

describe('PEP 440 ordering', () => {
  it('orders dev, pre, release and post releases as the specification does', () => {
    const chain = ['1.0.dev0', '1.0a1', '1.0a2.dev1', '1.0a2', '1.0b1', '1.0rc1', '1.0', '1.0.post1', '1.1'];
    for (let i = 0; i < chain.length - 1; i++) expect(comparePep440(chain[i]!, chain[i + 1]!)).toBe(-1);
  });

  it('treats trailing zeros as equal and the epoch as first', () => {
    expect(comparePep440('1.0', '1.0.0')).toBe(0);
    expect(comparePep440('1!0.1', '2.0')).toBe(1);
    expect(comparePep440('2.0', '10.0')).toBe(-1);
  });

  it('reads alternate spellings of pre-releases', () => {
    expect(comparePep440('1.0-alpha-1', '1.0a1')).toBe(0);
    expect(comparePep440('1.0-1', '1.0.post1')).toBe(0);
    expect(comparePep440('not a version', '1.0')).toBeNull();
  });
});

describe('NuGet ordering', () => {
  it('pads short versions and compares a fourth part', () => {
    expect(compareNuGet('1.0', '1.0.0')).toBe(0);
    expect(compareNuGet('1.0.0.1', '1.0.0')).toBe(1);
    expect(compareNuGet('1.0.0-beta', '1.0.0')).toBe(-1);
  });
});

const range = (type: AffectedRange['type'], ...events: AffectedRange['events']): AffectedRange => ({ type, events });

describe('OSV range evaluation', () => {
  it('holds a version from introduced up to, not including, fixed', () => {
    const r = range('ECOSYSTEM', { introduced: '0.0.5' }, { fixed: '0.1.16' });
    expect(inRange(r, '0.0.4', 'npm')).toBe(false);
    expect(inRange(r, '0.0.5', 'npm')).toBe(true);
    expect(inRange(r, '0.1.15', 'npm')).toBe(true);
    expect(inRange(r, '0.1.16', 'npm')).toBe(false);
    expect(inRange(r, '1.0.0', 'npm')).toBe(false);
  });

  it('holds last_affected itself and nothing after it', () => {
    const r = range('SEMVER', { introduced: '0' }, { last_affected: '2.3.4' });
    expect(inRange(r, '0.0.1', 'npm')).toBe(true);
    expect(inRange(r, '2.3.4', 'npm')).toBe(true);
    expect(inRange(r, '2.3.5', 'npm')).toBe(false);
  });

  it('reads an open-ended introduced as every later version', () => {
    const r = range('SEMVER', { introduced: '1.0.16' });
    expect(inRange(r, '1.0.15', 'npm')).toBe(false);
    expect(inRange(r, '1.0.16', 'npm')).toBe(true);
    expect(inRange(r, '9.0.0', 'npm')).toBe(true);
  });

  it('sorts unsorted events and handles several affected spans', () => {
    const r = range(
      'ECOSYSTEM',
      { fixed: '2.0.1' },
      { introduced: '2.0.0' },
      { fixed: '1.2.0' },
      { introduced: '1.0.0' },
    );
    expect(inRange(r, '0.9.0', 'npm')).toBe(false);
    expect(inRange(r, '1.1.0', 'npm')).toBe(true);
    expect(inRange(r, '1.5.0', 'npm')).toBe(false);
    expect(inRange(r, '2.0.0', 'npm')).toBe(true);
    expect(inRange(r, '2.0.1', 'npm')).toBe(false);
  });

  it('compares PyPI ECOSYSTEM ranges by PEP 440, not as text', () => {
    const r = range('ECOSYSTEM', { introduced: '0' }, { fixed: '1.10' });
    expect(inRange(r, '1.9', 'PyPI')).toBe(true);
    expect(inRange(r, '1.10rc1', 'PyPI')).toBe(true);
    expect(inRange(r, '1.10', 'PyPI')).toBe(false);
  });

  it('answers null for a version it cannot read', () => {
    expect(inRange(range('SEMVER', { introduced: '0' }), 'latest', 'npm')).toBeNull();
  });
});

describe('affected packages', () => {
  const pkg = (over: Partial<AffectedPackage>): AffectedPackage => ({
    ecosystem: 'npm',
    name: 'x',
    ranges: [],
    versions: [],
    ...over,
  });

  it('means every version when neither ranges nor versions are given', () => {
    expect(affects(pkg({}), '1.0.0')).toBe(true);
    expect(affects(pkg({}), null)).toBe(true);
  });

  it('matches explicit versions exactly and nothing else', () => {
    const compromised = pkg({ versions: ['0.10.10', '0.11.10'] });
    expect(affects(compromised, '0.11.10')).toBe(true);
    expect(affects(compromised, '0.11.11')).toBe(false);
    expect(affects(compromised, null)).toBeNull();
  });

  it('names the first fixed version above the one asked about', () => {
    const p = pkg({
      ranges: [
        range('ECOSYSTEM', { introduced: '1.0.0' }, { fixed: '1.2.0' }, { introduced: '2.0.0' }, { fixed: '2.0.3' }),
      ],
    });
    expect(fixedVersion(p, '2.0.1')).toBe('2.0.3');
    expect(fixedVersion(p, '1.1.0')).toBe('1.2.0');
    expect(fixedVersion(p, null)).toBe('1.2.0');
  });
});

describe('the version order advisories are judged by', () => {
  it('places a PyPI post-release after its release and a dev release before its pre-releases', () => {
    expect(compareVersions('1.0.post1', '1.0')).toBeGreaterThan(0);
    expect(compareVersions('1.0.dev0', '1.0a1')).toBeLessThan(0);
    expect(compareVersions('1!0.1', '2.0')).toBeGreaterThan(0);
  });

  it('keeps a version before a post-release fix inside the affected range', () => {
    expect(
      isAffected(
        { ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.0.post1' }] }], versions: [] },
        '1.0',
      ),
    ).toBe(true);
    expect(
      isAffected(
        { ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.0.post1' }] }], versions: [] },
        '1.0.post1',
      ),
    ).toBe(false);
  });

  it('reads a hyphen inside a SemVer pre-release identifier as SemVer does', () => {
    expect(compareVersions('1.0.0-alpha-2', '1.0.0-alpha.1')).toBeGreaterThan(0);
  });
});
