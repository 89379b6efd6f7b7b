/**
 * `npm start` finds the committed dataset's files without loading fast-glob: for a pattern of the form
 * `folder/prefix*suffix` it reads the folder itself. It must list exactly what fast-glob lists.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import { beforeAll, describe, expect, it } from 'vitest';
import { filesInOneFolder } from '../../src/snapshot-build/read-input.js';
import { makeTempDir } from '../support/temp.js';

let cwd: string;

beforeAll(async () => {
  cwd = await makeTempDir('mts-input-files-');
  await mkdir(path.join(cwd, 'data', 'nested.json'), { recursive: true });
  for (const name of [
    'servers.json',
    'more.ndjson',
    'a.json',
    '.hidden.json',
    'notes.txt',
    'JSON.JSON',
    'x.json.bak',
    'json',
  ])
    await writeFile(path.join(cwd, 'data', name), '[]');
  await writeFile(path.join(cwd, 'top.json'), '[]');
  await symlink(path.join(cwd, 'data', 'a.json'), path.join(cwd, 'data', 'linked.json'));
  await symlink(path.join(cwd, 'missing.json'), path.join(cwd, 'data', 'dangling.json'));
  await symlink(path.join(cwd, 'data', 'nested.json'), path.join(cwd, 'data', 'folder-link.json'));
});

describe('finding input files in one folder', () => {
  it.each([
    'data/*.json',
    'data/*',
    'data/*json',
    'data/s*.json',
    'data/*.ndjson',
    '*.json',
    'data/x*',
    'none/*.json',
    'data/servers*.json',
  ])('lists what fast-glob lists for %s', async (glob) => {
    const ours = await filesInOneFolder(glob, cwd);
    expect(ours).toBeDefined();
    const theirs = await fg(glob, { cwd, onlyFiles: true, absolute: false, dot: false });
    expect([...ours!].sort()).toEqual([...theirs].sort());
  });

  it.each([
    'data/**/*.json',
    'data/{a,b}.json',
    'data/?.json',
    'data/*.j*n',
    '/abs/*.json',
    '../data/*.json',
    'data/[ab].json',
    'data/a.json',
  ])('leaves %s to fast-glob', async (glob) => {
    expect(await filesInOneFolder(glob, cwd)).toBeUndefined();
  });
});
