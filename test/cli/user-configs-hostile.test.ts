/**
 * L8: input the clients' parsers accept but that would overflow the stack (JSONC nested 3,000 deep, 130,000
 * entries) is one reported file, never a stack, and the other files are still read.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUserConfigs } from '../../src/cli/user-configs.js';
import { makeTempDir } from '../support/temp.js';

describe('hostile user-level files', () => {
  it('reports JSONC nested 3,000 deep as one file it could not read and still reads the others', async () => {
    const home = await makeTempDir('mts-hostile-');
    await writeFile(path.join(home, '.claude.json'), `{"mcpServers": {"x": ${'['.repeat(3000)}${']'.repeat(3000)}}}`);
    await mkdir(path.join(home, '.cursor'));
    await writeFile(path.join(home, '.cursor', 'mcp.json'), '{"mcpServers": {"a": {"url": "https://a.example/mcp"}}}');
    const { entries, files } = await readUserConfigs({ HOME: home, APPDATA: '', XDG_CONFIG_HOME: '' });
    expect(entries.map((entry) => entry.name)).toContain('a');
    expect(files.find((file) => file.client === 'Cursor')).toMatchObject({ read: true, servers: 1 });
    const claude = files.find((file) => file.client === 'Claude Code');
    if (claude?.read === false) expect(claude.reason).not.toMatch(/\n/);
  });

  it('reads 130,000 entries of one file without overflowing the stack', async () => {
    const home = await makeTempDir('mts-hostile-');
    const servers = Array.from({ length: 130_000 }, (_, index) => `"s${index}": {"url": "https://s.example/${index}"}`);
    await writeFile(path.join(home, '.claude.json'), `{"mcpServers": {${servers.join(',')}}}`);
    const { entries, files } = await readUserConfigs({ HOME: home, APPDATA: '', XDG_CONFIG_HOME: '' });
    expect(files).toEqual([{ file: `~${path.sep}.claude.json`, client: 'Claude Code', read: true, servers: 130_000 }]);
    expect(entries).toHaveLength(130_000);
  });
});
