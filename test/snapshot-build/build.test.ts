/**
 * The build: a valid dataset becomes a complete snapshot; anything the decisions reject stops the build
 * with a message naming the file, the record and the rule, and the previous snapshot stays untouched.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot-build/build.js';
import { ADVISORIES_FILE, ARTIFACT_FILES, ARTIFACT_VERSION, MANIFEST_FILE } from '../../src/format/manifest.js';
import { HISTORY_FILE } from '../../src/history/history.js';
import { loadObjectEngine } from '../support/engine.js';
import { makeRecord } from '../support/records.js';
import { SnapshotLoadError } from '../../src/query/load.js';
import { InputError } from '../../src/snapshot-build/read-input.js';

const fixtures = path.resolve('test/fixtures/dataset');
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'mts-build-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function buildError(input: string, out = path.join(work, 'never')): Promise<InputError> {
  const error = await buildSnapshot({ input, out }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe('building a valid dataset', () => {
  it('reads .json and .ndjson files and writes every artifact with the manifest', async () => {
    const out = path.join(work, 'valid');
    const manifest = await buildSnapshot({ input: `${fixtures}/valid/*`, out });
    expect(manifest.record_count).toBe(3);
    expect(manifest.artifact_version).toBe(ARTIFACT_VERSION);
    // With the advisories the build scores with (the checkout's data/evidence/advisories.json) beside them.
    expect((await readdir(out)).sort()).toEqual(
      [...Object.values(ARTIFACT_FILES), ADVISORIES_FILE, HISTORY_FILE, MANIFEST_FILE].sort(),
    );
    const engine = await loadObjectEngine(out);
    expect(engine.get('ai.zed/weather')?.install.repo_url).toBeNull();
    expect(engine.snapshot.id).toBe(manifest.snapshot_id);
  });

  it('gives the same snapshot id to the same dataset, whenever it is built', async () => {
    const a = await buildSnapshot({
      input: `${fixtures}/valid/*`,
      out: path.join(work, 'a'),
      now: new Date('2026-01-01T00:00:00Z'),
    });
    const b = await buildSnapshot({
      input: `${fixtures}/valid/*`,
      out: path.join(work, 'b'),
      now: new Date('2026-06-01T00:00:00Z'),
    });
    expect(a.snapshot_id).toBe(b.snapshot_id);
    expect(a.generated_at).not.toBe(b.generated_at);
  });
});

describe('rejecting a dataset', () => {
  const cases: [string, RegExp][] = [
    ['score-above-100.json', /record #1 \("io\.github\.alice\/postgres-mcp"\) breaks the schema:[\s\S]*trust_score/],
    ['label-outside-band.json', /record #1[\s\S]*trust_label must be the band of trust_score/],
    ['duplicate-name-other-case.json', /record #2 \("IO\.GITHUB\.ALICE\/Postgres-MCP"\): duplicate name/],
    ['name-with-two-slashes.json', /record #1[\s\S]*name must be <namespace>\/<id> with exactly one "\/"/],
    ['name-without-slash.json', /record #1[\s\S]*name must be <namespace>\/<id>/],
    ['unknown-field.json', /record #1[\s\S]*owner/],
    ['invented-empty-version.json', /record #1[\s\S]*install\.version/],
  ];
  for (const [file, message] of cases) {
    it(`rejects ${file.replace('.json', '').replaceAll('-', ' ')}, naming the file, the record and the rule`, async () => {
      const error = await buildError(`${fixtures}/invalid/${file}`);
      expect(error.message).toContain(file);
      expect(error.message).toMatch(message);
    });
  }

  it('refuses a dataset with no records rather than serve nothing with an average score of 0', async () => {
    const dir = path.join(work, 'empty-dataset');
    await mkdir(dir);
    await writeFile(path.join(dir, 'servers.json'), '[]');
    const error = await buildError(`${dir}/*.json`);
    expect(error.lines).toEqual([expect.stringMatching(/hold no server records; a snapshot needs at least one$/)]);
  });

  it('says to write null, not an empty string, for an unknown version', async () => {
    const dir = path.join(work, 'empty-version');
    await mkdir(dir);
    const record = makeRecord({
      name: 'io.github.a/b',
      install: { repo_url: null, version: '', package_types: [], transport_types: [] },
    });
    await writeFile(path.join(dir, 'servers.json'), JSON.stringify([record]));
    expect((await buildError(`${dir}/*.json`)).message).toContain(
      'version must not be empty: write null when the version is unknown',
    );
  });

  it('gives input that is not valid JSON one clear line', async () => {
    const error = await buildError(`${fixtures}/invalid/not-json.json`);
    expect(error.lines).toHaveLength(1);
    expect(error.lines[0]).toMatch(/not-json\.json: not valid JSON/);
  });

  it('refuses a .json file that is not an array of records', async () => {
    expect((await buildError(`${fixtures}/invalid/not-an-array.json`)).lines[0]).toMatch(/must hold a JSON array/);
  });

  it('refuses an empty glob with one clear line', async () => {
    const error = await buildError(`${work}/nothing-here/*.json`);
    expect(error.lines).toEqual([`no input files match "${work}/nothing-here/*.json"`]);
  });

  it('refuses an unreadable file with one clear line', async () => {
    const dir = path.join(work, 'locked');
    await mkdir(dir);
    const file = path.join(dir, 'unreadable.json');
    await writeFile(file, '[]');
    await chmod(file, 0o000);
    // Root reads any file whatever its mode, so as root the command runs without the two capabilities that
    // let it (setpriv, util-linux): still root, so the checkout stays readable wherever it is.
    const asRoot = process.getuid?.() === 0;
    const command = asRoot ? 'setpriv' : process.execPath;
    const prefix = asRoot ? ['--bounding-set=-dac_override,-dac_read_search', process.execPath] : [];
    const result = spawnSync(
      command,
      [...prefix, '--import', 'tsx', 'scripts/build.ts', '--input', file, '--out', path.join(dir, 'out')],
      {
        encoding: 'utf8',
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/unreadable\.json: cannot read the file \(EACCES\)/);
  });

  it('leaves the previous snapshot untouched when a build is refused', async () => {
    const out = path.join(work, 'kept');
    const first = await buildSnapshot({ input: `${fixtures}/valid/*`, out });
    const before = await readFile(path.join(out, MANIFEST_FILE), 'utf8');
    await buildError(`${fixtures}/invalid/duplicate-name-other-case.json`, out);
    expect(await readFile(path.join(out, MANIFEST_FILE), 'utf8')).toBe(before);
    expect((await loadObjectEngine(out)).snapshot.id).toBe(first.snapshot_id);
    // Nothing half-written is left beside it either.
    expect((await readdir(work)).filter((name) => name.startsWith('kept.'))).toEqual([]);
  });
});

describe('the build command', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', ...args], { encoding: 'utf8' });

  it('exits non-zero with the problem on stderr for a bad record', () => {
    const result = run('--input', `${fixtures}/invalid/score-above-100.json`, '--out', path.join(work, 'cli'));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/refused, nothing was published/);
    expect(result.stderr).toMatch(/score-above-100\.json: record #1/);
  });

  it('exits non-zero with one line for an empty glob', () => {
    const result = run('--input', `${work}/none/*.json`, '--out', path.join(work, 'cli'));
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(2);
  });

  it('builds a valid dataset and says what it built', () => {
    const result = run('--input', `${fixtures}/valid/*`, '--out', path.join(work, 'cli-ok'));
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/built snapshot [0-9a-f]{20}: 3 records/);
  });
});

describe('loading a snapshot', () => {
  it('refuses an artifact version it does not know', async () => {
    const out = path.join(work, 'future');
    await buildSnapshot({ input: `${fixtures}/valid/*`, out });
    const manifestFile = path.join(out, MANIFEST_FILE);
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    await writeFile(manifestFile, JSON.stringify({ ...manifest, artifact_version: 99 }));
    await expect(loadObjectEngine(out)).rejects.toThrow(/artifact version 99 is not one this server knows/);
  });

  it('refuses a truncated artifact and an altered one', async () => {
    const out = path.join(work, 'corrupt');
    await buildSnapshot({ input: `${fixtures}/valid/*`, out });
    const names = path.join(out, ARTIFACT_FILES.names);
    const original = await readFile(names);
    await writeFile(names, original.subarray(0, -3));
    await expect(loadObjectEngine(out)).rejects.toThrow(
      /names\.bin: \d+ bytes where the manifest says \d+ \(truncated or altered\)/,
    );
    const altered = Buffer.from(original);
    altered[altered.length - 1]! ^= 0x01;
    await writeFile(names, altered);
    await expect(loadObjectEngine(out)).rejects.toThrow(/names\.bin: content does not match the manifest's hash/);
    await rm(path.join(out, ARTIFACT_FILES.records));
    await expect(loadObjectEngine(out)).rejects.toBeInstanceOf(SnapshotLoadError);
  });

  it('refuses a folder with no manifest with a hint to build', async () => {
    await expect(loadObjectEngine(path.join(work, 'missing'))).rejects.toThrow(
      /cannot read the manifest .*npm run build/,
    );
  });
});
