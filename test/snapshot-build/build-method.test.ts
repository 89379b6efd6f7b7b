/**
 * The build scores with mts-2 by default: every record it serves carries its evidence and the method's
 * scores, on the build's own thread as on the schema check's worker; `method: 'msc-7bc729d'` (the build's
 * `--method msc-7bc729d`) serves the dataset's own scores, as the upstream reproduction holds them.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildSnapshotWithDiff } from '../../src/snapshot-build/build.js';
import { ServerRecordSchema } from '../../src/model/record-schema.js';
import type { ServerRecord } from '../../src/model/schema.js';
import { loadSnapshot } from '../../src/query/open.js';
import { makeTempDir } from '../support/temp.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const committed = JSON.parse(readFileSync(path.join(ROOT, 'data', 'servers.json'), 'utf8')) as ServerRecord[];
const NAMES = [
  'com.notion/mcp',
  'io.github.upstash/context7',
  'io.github.github/github-mcp-server',
  'ai.aliengiraffe/spotdb',
];
const sample = committed.filter((record) => NAMES.includes(record.name));

async function build(options: { method?: 'mts-2' | 'msc-7bc729d'; workers?: 'always' } = {}) {
  const dir = await makeTempDir('mts-build-method-');
  const input = path.join(dir, 'servers.json');
  await writeFile(input, JSON.stringify(sample));
  const out = path.join(dir, 'snapshot');
  const { manifest, checkedBy } = await buildSnapshotWithDiff({
    input,
    out,
    now: new Date('2026-03-05T00:00:00Z'),
    ...options,
  });
  const engine = await loadSnapshot(out);
  const served = NAMES.map((name) => JSON.parse(engine.getJson(name) ?? 'null') as ServerRecord);
  return { manifest, served, checkedBy };
}

describe('the build scores with mts-2', () => {
  it('serves every record scored with mts-2, with its evidence, by default', async () => {
    expect(sample).toHaveLength(NAMES.length);
    const { served } = await build();
    for (const record of served) {
      expect(ServerRecordSchema.safeParse(record).success, record.name).toBe(true);
      expect(record.evidence?.method, record.name).toBe('mts-2');
      expect(Object.keys(record.evidence?.sources ?? {})).toEqual([
        'registry',
        'repository',
        'packages',
        'probe',
        'advisories',
      ]);
      expect(record.evidence?.sources.packages).toMatchObject({
        measured: false,
        missing: expect.stringMatching(/not read for this snapshot/),
      });
    }
    const notion = served[0]!;
    const upstream = sample.find((record) => record.name === 'com.notion/mcp')!;
    expect(upstream.trust_score).toBe(22);
    expect(notion.trust_score).toBeGreaterThanOrEqual(40);
    expect(notion.evidence?.sources.registry).toMatchObject({ measured: true, third_party: true });
    // data/servers.json is the upstream import, untouched by the build.
    expect(readFileSync(path.join(ROOT, 'data', 'servers.json'), 'utf8')).toContain(
      '"name":"com.notion/mcp","trust_score":22',
    );
  });

  it('scores on the schema check worker exactly as on the build thread', async () => {
    const here = await build();
    const worker = await build({ workers: 'always' });
    // The worker found every record as this thread scored it, so the build kept what it parsed.
    expect(worker.checkedBy).toBe('worker');
    expect(worker.served).toEqual(here.served);
    expect(worker.manifest.snapshot_id).toBe(here.manifest.snapshot_id);
  });

  it("serves the dataset's own scores with method msc-7bc729d, as a snapshot of its own input hash", async () => {
    const upstream = await build({ method: 'msc-7bc729d' });
    const byName = new Map(sample.map((record) => [record.name, record]));
    for (const record of upstream.served) expect(record).toEqual(byName.get(record.name));
    const mts2 = await build();
    expect(upstream.manifest.input_hash).not.toBe(mts2.manifest.input_hash);
  });

  it('refuses an unknown --method in one line, before building anything', async () => {
    const run = await promisify(execFile)(
      path.join(ROOT, 'node_modules', '.bin', 'tsx'),
      [
        path.join(ROOT, 'scripts', 'build.ts'),
        '--method',
        'mts-9',
        '--out',
        path.join(await makeTempDir('mts-build-method-'), 's'),
      ],
      { cwd: ROOT },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(run).toMatchObject({ code: 2 });
    expect((run as { stderr: string }).stderr.trim()).toBe(
      'build: --method must be one of mts-2, msc-7bc729d, not "mts-9"',
    );
  });

  it('refuses --data beside --input in one line, before building anything', async () => {
    const run = await promisify(execFile)(
      path.join(ROOT, 'node_modules', '.bin', 'tsx'),
      [path.join(ROOT, 'scripts', 'build.ts'), '--data', 'data', '--input', 'data/*.json'],
      { cwd: ROOT },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(run).toMatchObject({ code: 2 });
    expect((run as { stderr: string }).stderr.trim()).toBe(
      'build: --data names the whole dataset folder: give it without --input, --registry or --catalog',
    );
  });
});
