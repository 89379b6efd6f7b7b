/**
 * `check --user`: the user-level configuration files of the MCP clients, found from `HOME`, `APPDATA` and
 * `XDG_CONFIG_HOME` pointed at a fixture tree (`test/fixtures/cli/user-home/`, eleven clients' files in their
 * own formats, one of them broken), and the launchers they use mapped to what the check looks up.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseClientConfig } from '../../src/cli/client-formats.js';
import type { ConfigEntry } from '../../src/cli/config-files.js';
import { itemForEntry } from '../../src/cli/entries.js';
import { readUserConfigs, userConfigPlaces } from '../../src/cli/user-configs.js';
import { REPO } from '../e2e/process.js';

const HOME = path.join(REPO, 'test', 'fixtures', 'cli', 'user-home');
const ENV = { HOME, APPDATA: path.join(HOME, 'AppData', 'Roaming') };
const sep = path.sep;
const at = (...parts: string[]) => ['~', ...parts].join(sep);

describe('the user-level configuration files', () => {
  it('reads every client it finds, each in its own format, and reports the file it could not read', async () => {
    const { entries, files } = await readUserConfigs(ENV);
    expect(files).toEqual([
      {
        file: at('Library', 'Application Support', 'Claude', 'claude_desktop_config.json'),
        client: 'Claude Desktop',
        read: true,
        servers: 1,
      },
      {
        file: at('AppData', 'Roaming', 'Claude', 'claude_desktop_config.json'),
        client: 'Claude Desktop',
        read: true,
        servers: 1,
      },
      { file: at('.claude.json'), client: 'Claude Code', read: true, servers: 2 },
      { file: at('.cursor', 'mcp.json'), client: 'Cursor', read: true, servers: 2 },
      { file: at('.config', 'Code', 'User', 'mcp.json'), client: 'VS Code', read: true, servers: 1 },
      { file: at('.config', 'Code', 'User', 'settings.json'), client: 'VS Code', read: true, servers: 1 },
      { file: at('.codeium', 'windsurf', 'mcp_config.json'), client: 'Windsurf', read: true, servers: 1 },
      { file: at('.gemini', 'settings.json'), client: 'Gemini CLI', read: true, servers: 2 },
      { file: at('.config', 'zed', 'settings.json'), client: 'Zed', read: true, servers: 1 },
      { file: at('.continue', 'config.yaml'), client: 'Continue', read: true, servers: 1 },
      { file: at('.codex', 'config.toml'), client: 'Codex', read: true, servers: 2 },
      { file: at('.config', 'opencode', 'opencode.json'), client: 'opencode', read: true, servers: 2 },
      {
        file: at('.continue', 'mcpServers', 'broken.yaml'),
        client: 'Continue',
        read: false,
        reason: expect.stringMatching(/^~.*broken\.yaml: not valid YAML \(\w+ at line \d\)$/),
      },
    ]);
    const checked = entries.map((entry) => [entry.name, entry.line, itemForEntry(entry)]);
    expect(checked).toEqual([
      ['fabric', 3, { ok: true, item: { package: 'npm:@microsoft/fabric-mcp' } }],
      ['context7', 3, { ok: true, item: { package: 'npm:@upstash/context7-mcp' } }],
      ['sentry', 4, { ok: true, item: { package: 'npm:@sentry/mcp-server' } }],
      ['azure (project /home/dev/app)', 10, { ok: true, item: { package: 'npm:@azure/mcp@latest' } }],
      ['github-via-proxy', 3, { ok: true, item: { url: 'https://api.githubcopilot.com/mcp/' } }],
      ['context7', 4, { ok: true, item: { package: 'npm:@upstash/context7-mcp' } }],
      ['firebase', 4, { ok: true, item: { package: 'npm:firebase-tools@latest' } }],
      ['linear', 6, { ok: true, item: { url: 'https://mcp.linear.app/mcp' } }],
      ['notion', 3, { ok: true, item: { url: 'https://mcp.notion.com/mcp' } }],
      ['github', 4, { ok: true, item: { url: 'https://api.githubcopilot.com/mcp/' } }],
      [
        'local-tool',
        5,
        { ok: false, reason: expect.stringMatching(/^"node \/opt\/tools\/server\.js" runs a program/) },
      ],
      ['mcpcap', 4, { ok: true, item: { package: 'pypi:mcpcap' } }],
      ['sentry', 5, { ok: true, item: { package: 'npm:@sentry/mcp-server' } }],
      ['fabric', 3, { ok: true, item: { package: 'npm:@microsoft/fabric-mcp' } }],
      ['unknown-remote', 7, { ok: true, item: { url: 'https://nobody.example/mcp' } }],
      ['mcpcap', 4, { ok: true, item: { package: 'pypi:mcpcap' } }],
      ['linear', 5, { ok: true, item: { url: 'https://mcp.linear.app/mcp' } }],
    ]);
  });

  it('finds nothing, and reports nothing, in a home without client files', async () => {
    expect(await readUserConfigs({ HOME: path.join(HOME, '.codex') })).toEqual({ entries: [], files: [] });
  });

  it('looks where each system keeps the files: macOS, XDG and APPDATA paths, each once', () => {
    const places = userConfigPlaces({ HOME: '/h', APPDATA: '/a', XDG_CONFIG_HOME: '/x' }).map((place) => place.file);
    expect(places).toEqual(
      expect.arrayContaining([
        path.join('/h', 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'),
        path.join('/x', 'Claude', 'claude_desktop_config.json'),
        path.join('/a', 'Claude', 'claude_desktop_config.json'),
        path.join('/a', 'Code', 'User', 'settings.json'),
        path.join('/x', 'zed', 'settings.json'),
        path.join('/a', 'Zed', 'settings.json'),
      ]),
    );
    expect(new Set(places).size).toBe(places.length);
  });

  it('says where a TOML or JSON file is broken, by line, without quoting it', () => {
    expect(() => parseClientConfig('c.toml', 'a = 1\n[mcp_servers.x\n', 'codex-toml')).toThrow(
      /^c\.toml: not valid TOML \(.* at line 2\)$/,
    );
    expect(() => parseClientConfig('s.json', '{\n "mcp": SECRET }', 'vscode-settings')).toThrow(
      /^s\.json: not valid JSON \(\w+ at line 2\)$/,
    );
  });
});

const entry = (command: string, args: string[]): ConfigEntry => ({ file: 'f', name: 'n', line: 1, command, args });

describe('launchers', () => {
  it.each([
    [entry('cmd', ['/c', 'npx', '-y', '@upstash/context7-mcp']), { package: 'npm:@upstash/context7-mcp' }],
    [entry('C:\\Windows\\System32\\cmd.exe', ['/C', 'uvx mcp-server-git']), { package: 'pypi:mcp-server-git' }],
    [entry('cmd', ['/c', 'C:\\Program Files\\nodejs\\npx.cmd', '-y', 'pkg']), { package: 'npm:pkg' }],
    [entry('/home/me/.local/bin/uvx', ['mcpcap']), { package: 'pypi:mcpcap' }],
    [entry('npm', ['exec', '--yes', '--package=@scope/tool', '--', 'tool']), { package: 'npm:@scope/tool' }],
    [entry('npm', ['x', '-y', 'pkg']), { package: 'npm:pkg' }],
    [entry('pnpm', ['dlx', 'pkg@2']), { package: 'npm:pkg@2' }],
    [
      entry('npx', ['-y', 'mcp-remote@0.1.18', 'https://api.githubcopilot.com/mcp/', '--header', 'A:b']),
      { url: 'https://api.githubcopilot.com/mcp/' },
    ],
    [entry('npx', ['-y', 'supergateway', '--sse', 'https://a.example/sse']), { url: 'https://a.example/sse' }],
    [entry('uvx', ['mcp-proxy', 'http://127.0.0.1:8080/sse']), { url: 'http://127.0.0.1:8080/sse' }],
  ])('%j', (given, item) => {
    expect(itemForEntry(given)).toEqual({ ok: true, item });
  });

  it('reports a proxy with no URL, an empty cmd and an unknown launcher as not checkable, showing the command', () => {
    expect(itemForEntry(entry('npx', ['mcp-remote']))).toEqual({
      ok: false,
      reason: '"npx mcp-remote" runs the proxy npm:mcp-remote with no http(s) URL to judge',
    });
    expect(itemForEntry(entry('cmd', ['/c']))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^"cmd \/c" runs a program/),
    });
    expect(itemForEntry(entry('deno', ['run', '-A', 'jsr:@x/y', '--flag']))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^"deno run -A jsr:@x\/y --flag" runs a program this check cannot identify/),
    });
  });
});
