/**
 * The tools artifact: a build publishes the pinned tools of `data/evidence/tools.json` for the servers it
 * scores, checked whole (a bad file fails the build with one line), and the loader answers them by name.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot-build/build.js';
import { InputError } from '../../src/snapshot-build/read-input.js';
import { TOOLS_FILE } from '../../src/format/manifest.js';
import { makeRecord } from '../support/records.js';
import { makeTempDir } from '../support/temp.js';
import { loadObjectEngine } from '../support/engine.js';
import { pinned, tool, toolsFile, writeEvidence } from '../support/tools-fixtures.js';

const RECORDS = [
  makeRecord({
    name: 'com.example/remote',
    remotes: [{ type: 'streamable-http', url: 'https://remote.example.com/mcp' }],
  }),
  makeRecord({ name: 'com.example/local' }),
];
const TOOLS = toolsFile([
  pinned('com.example/Remote', [tool('search'), tool('delete', { annotations: { destructive: true } })]),
  pinned('com.example/gone', [tool('anything')]),
]);

let work: string;
let input: string;
beforeAll(async () => {
  work = await makeTempDir('mts-tools-');
  input = path.join(work, 'dataset.json');
  await writeFile(input, JSON.stringify(RECORDS));
});

const build = (evidenceDir: string, out: string) => buildSnapshot({ input, out: path.join(work, out), evidenceDir });

describe('the tools artifact', () => {
  it('publishes the pinned tools of the scored servers, found by name in any case', async () => {
    const evidence = await writeEvidence(path.join(work, 'evidence-ok'), { 'tools.json': TOOLS });
    const manifest = await build(evidence, 'ok');
    expect(manifest.files[TOOLS_FILE]).toBeDefined();
    const written = JSON.parse(await readFile(path.join(work, 'ok', TOOLS_FILE), 'utf8')) as typeof TOOLS;
    // The server the snapshot does not hold is left out: nothing could ask for it.
    expect(written.servers.map((server) => server.name)).toEqual(['com.example/Remote']);
    const engine = await loadObjectEngine(path.join(work, 'ok'));
    try {
      await engine.ready('tools');
      const tools = engine.tools();
      expect(tools.by).toBe('MCP Trust Score prober');
      expect(tools.get('COM.EXAMPLE/remote')?.tools.map((t) => t.name)).toEqual(['search', 'delete']);
      expect(tools.get('com.example/local')).toBeUndefined();
    } finally {
      engine.close();
    }
  });

  it('writes no tools file when the evidence has none, and the engine answers none', async () => {
    const evidence = await writeEvidence(path.join(work, 'evidence-none'), {});
    const manifest = await build(evidence, 'none');
    expect(manifest.files[TOOLS_FILE]).toBeUndefined();
    expect(await readdir(path.join(work, 'none'))).not.toContain(TOOLS_FILE);
    const engine = await loadObjectEngine(path.join(work, 'none'));
    try {
      await engine.ready('tools');
      expect(engine.tools().get('com.example/remote')).toBeUndefined();
    } finally {
      engine.close();
    }
  });

  it('makes a snapshot whose tools changed a different snapshot, with a different input hash', async () => {
    const a = await build(await writeEvidence(path.join(work, 'evidence-a'), { 'tools.json': TOOLS }), 'a');
    const changed = toolsFile([pinned('com.example/remote', [tool('search', { description: 'Now different.' })])]);
    const b = await build(await writeEvidence(path.join(work, 'evidence-b'), { 'tools.json': changed }), 'b');
    expect(b.snapshot_id).not.toBe(a.snapshot_id);
    expect(b.input_hash).not.toBe(a.input_hash);
  });

  const bad: [string, unknown, RegExp][] = [
    ['is not JSON', '{"by":', /tools\.json: not JSON/],
    [
      'breaks the schema',
      { by: 'x', third_party: false, servers: [{ name: 'no-slash' }] },
      // Read first by the probe source (the documented shape) or by the tools artifact: one line either way.
      /tools\.json: not (a tools file at servers\.0|the documented shape)/,
    ],
    [
      'names a server twice',
      toolsFile([pinned('com.example/remote', [tool('a')]), pinned('COM.example/remote', [tool('b')])]),
      /"COM\.example\/remote" is listed twice/,
    ],
    [
      'carries a hash its tools do not give',
      toolsFile([{ ...pinned('com.example/remote', [tool('a')]), hash: `sha256:${'0'.repeat(64)}` }]),
      /the hash of "com\.example\/remote" is not the hash of its tools/,
    ],
  ];
  for (const [what, value, message] of bad) {
    it(`fails the build with one line when the tools file ${what}, and writes nothing`, async () => {
      const slug = what.replaceAll(' ', '-');
      const evidence = await writeEvidence(path.join(work, `evidence-${slug}`), { 'tools.json': value });
      const error = await build(evidence, slug).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).lines).toHaveLength(1);
      expect((error as InputError).lines[0]).toMatch(message);
      expect(await readdir(work)).not.toContain(slug);
    });
  }
});
