/** Reading MCP client configuration files, and what each server entry is checked by. */
import { describe, expect, it } from 'vitest';
import { type ConfigEntry, ConfigFileError, parseConfigFile } from '../../src/cli/config-files.js';
import { itemForEntry } from '../../src/cli/entries.js';

const entry = (command: string, args: string[] = []): ConfigEntry => ({ file: 'f', name: 'n', line: 1, command, args });

describe('configuration files', () => {
  it('reads mcpServers and VS Code servers, with comments and trailing commas, and the line of each entry', () => {
    const text = [
      '{',
      '  // a comment with "quotes" and a , comma',
      '  "servers": {',
      '    /* block */ "one": { "url": "https://a.example/mcp", },',
      '    "two": {',
      '      "command": "npx", "args": ["-y", "pkg // not a comment"],',
      '    },',
      '  },',
      '}',
    ].join('\n');
    const entries = parseConfigFile('.vscode/mcp.json', text);
    expect(entries.map(({ name, line }) => [name, line])).toEqual([
      ['one', 4],
      ['two', 5],
    ]);
    expect(entries[0]?.url).toBe('https://a.example/mcp');
    expect(entries[1]?.args).toEqual(['-y', 'pkg // not a comment']);
    expect(parseConfigFile('f', '{"servers": {"a": {"command": "x /* y */",},},}')[0]?.command).toBe('x /* y */');
  });

  it('refuses a file that is not JSON or holds no servers, naming the file', () => {
    expect(() => parseConfigFile('a.json', '{')).toThrow(ConfigFileError);
    expect(() => parseConfigFile('a.json', '{\n\n  "x" 1')).toThrow(
      /^a\.json: not valid JSON \(ColonExpected at line 3\)/,
    );
    expect(() => parseConfigFile('b.json', '{"other": {}}')).toThrow(/b\.json: no "mcpServers" or "servers"/);
  });
});

describe('what an entry is checked by', () => {
  it.each([
    [entry('npx', ['-y', '@scope/pkg@1.2.0', 'serve']), { package: 'npm:@scope/pkg@1.2.0' }],
    [entry('npx', ['--package=@scope/pkg', 'bin']), { package: 'npm:@scope/pkg' }],
    [entry('/usr/local/bin/npx.cmd', ['pkg']), { package: 'npm:pkg' }],
    [entry('bunx', ['pkg']), { package: 'npm:pkg' }],
    [entry('pnpm', ['dlx', 'pkg']), { package: 'npm:pkg' }],
    [entry('yarn', ['dlx', 'pkg']), { package: 'npm:pkg' }],
    [entry('uvx', ['--python', '3.12', 'mcp-server-git']), { package: 'pypi:mcp-server-git' }],
    [entry('uvx', ['--from', 'tool-pkg', 'tool']), { package: 'pypi:tool-pkg' }],
    [entry('pipx', ['run', 'mcpcap']), { package: 'pypi:mcpcap' }],
    [
      entry('docker', ['run', '-i', '--rm', '-e', 'TOKEN', '-v', '/a:/b', 'mcp/github:1.0']),
      { package: 'oci:mcp/github:1.0' },
    ],
    [entry('podman', ['run', '--env=A=1', 'ghcr.io/x/y']), { package: 'oci:ghcr.io/x/y' }],
  ])('%j', (given, item) => {
    expect(itemForEntry(given)).toEqual({ ok: true, item });
  });

  it('checks a remote by its url or serverUrl', () => {
    expect(itemForEntry({ file: 'f', name: 'n', line: 1, args: [], url: 'https://a.example/mcp' })).toEqual({
      ok: true,
      item: { url: 'https://a.example/mcp' },
    });
  });

  it('says why an entry cannot be checked, never skipping it', () => {
    const local = itemForEntry(entry('node', ['./server.js']));
    expect(local).toMatchObject({ ok: false, reason: expect.stringMatching(/"node \.\/server\.js" runs a program/) });
    expect(itemForEntry(entry('npx', ['-y']))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/names no package/),
    });
    expect(itemForEntry({ file: 'f', name: 'n', line: 1, args: [] })).toMatchObject({ ok: false });
  });
});
