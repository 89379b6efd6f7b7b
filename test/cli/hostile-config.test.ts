/**
 * Configuration files as a hostile pull request writes them: text that tries to become a workflow command or
 * a terminal escape in the report, and files that are not what they seem (a link out of the folder, a named
 * pipe, a device, a huge file, tens of thousands of entries).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ConfigEntry, lineTable, parseConfigFile } from '../../src/cli/config-files.js';
import { MAX_CONFIG_BYTES, readConfigFile } from '../../src/cli/read-config.js';
import { formatReport, REPORT_FORMATS, type Report } from '../../src/cli/report.js';
import { printable } from '../../src/model/printable.js';

const HOSTILE = 'evil\n::error file=x::pwned\r\n::stop-commands::token\u001b[31mred\u0007\u009b2J\u0085\u2028\u202e';

function hostileReport(): Report {
  const entry: ConfigEntry = { file: `.mcp.json\n::warning::x`, name: HOSTILE, line: 3, command: 'node', args: [] };
  return {
    verdict: 'fail',
    policy: { min_score: 40, unknown: 'fail' },
    files: [{ file: `~/${HOSTILE}`, client: 'Cursor', read: false, reason: `~/${HOSTILE}: not valid JSON` }],
    rows: [
      {
        entry,
        result: {
          input: 'io.x/y',
          server: null,
          trust_score: null,
          trust_label: null,
          verdict: 'fail',
          reasons: [`not checkable: "${HOSTILE}" runs a program this check cannot identify`],
        },
      },
    ],
  };
}

// eslint-disable-next-line no-control-regex -- the test looks for raw control characters.
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/;

describe('a report of hostile configuration text', () => {
  it.each(REPORT_FORMATS)('in %s: no raw control character, and no line a runner reads as a command', (format) => {
    const out = formatReport(hostileReport(), format);
    expect(out).not.toMatch(RAW_CONTROL);
    for (const line of out.split('\n')) {
      // The runner reads a workflow command at the start of a line, after any white space.
      if (format === 'github' && /^::(error file|warning title)=/.test(line)) continue;
      expect(line.trimStart()).not.toMatch(/^::/);
    }
    if (format === 'json' || format === 'sarif') expect(JSON.stringify(JSON.parse(out))).toContain('\\u001b[31m');
  });

  it('writes one annotation whose title and message show the escapes', () => {
    const lines = formatReport(hostileReport(), 'github').trimEnd().split('\n');
    const annotations = lines.filter((line) => line.startsWith('::'));
    expect(annotations).toHaveLength(2);
    expect(annotations[0]).toMatch(/^::warning title=MCP trust%3A ~\/evil\\n%3A%3Aerror/);
    expect(annotations[1]).toContain('title=MCP trust%3A evil\\n%3A%3Aerror file=x%3A%3Apwned\\r\\n');
    expect(annotations[1]).toContain('\\u001b[31mred\\u0007\\u009b2J\\u0085\\u2028\\u202e');
  });

  it('escapes each kind of character visibly', () => {
    expect(printable('a\nb\tc\u001bd\u009be\u202ef')).toBe('a\\nb\\tc\\u001bd\\u009be\\u202ef');
    expect(printable('C:\\Users\\me\\.mcp.json — ok')).toBe('C:\\Users\\me\\.mcp.json — ok');
  });
});

describe('files that are not what they seem', () => {
  let dir: string;
  let outside: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mts-hostile-'));
    outside = await mkdtemp(path.join(tmpdir(), 'mts-outside-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('refuses a found file that links out of the folder, and reads it when it is named', async () => {
    const secret = path.join(outside, 'secret.json');
    await writeFile(secret, '{"mcpServers": {"s": {"url": "https://a.example/mcp"}}}');
    await symlink(secret, path.join(dir, '.mcp.json'));
    await expect(readConfigFile('.mcp.json', { cwd: dir, within: dir })).rejects.toThrow(
      /^\.mcp\.json: refused: it is a link to a file outside the working folder/,
    );
    await expect(readConfigFile('.mcp.json', { cwd: dir })).resolves.toHaveLength(1);
  });

  it('reads a found file that links to another file inside the folder', async () => {
    await mkdir(path.join(dir, 'config'));
    await writeFile(path.join(dir, 'config', 'mcp.json'), '{"servers": {"s": {"url": "https://a.example/mcp"}}}');
    await symlink(path.join(dir, 'config', 'mcp.json'), path.join(dir, '.mcp.json'));
    await expect(readConfigFile('.mcp.json', { cwd: dir, within: dir })).resolves.toHaveLength(1);
  });

  it.skipIf(process.platform === 'win32')('refuses a named pipe at once, without waiting for a writer', async () => {
    execFileSync('mkfifo', [path.join(dir, '.mcp.json')]);
    await expect(readConfigFile('.mcp.json', { cwd: dir, within: dir })).rejects.toThrow(
      /^\.mcp\.json: refused: it is a named pipe, not a regular file$/,
    );
  });

  it.skipIf(process.platform === 'win32')('refuses a device, even named explicitly', async () => {
    await symlink('/dev/zero', path.join(dir, '.mcp.json'));
    await expect(readConfigFile('.mcp.json', { cwd: dir })).rejects.toThrow(/it is a device, not a regular file$/);
    await expect(readConfigFile('/dev/zero')).rejects.toThrow(/^\/dev\/zero: refused: it is a device/);
  });

  it('refuses a file larger than the cap without reading it', async () => {
    const huge = path.join(dir, '.mcp.json');
    await writeFile(huge, '');
    await truncate(huge, MAX_CONFIG_BYTES + 1);
    await expect(readConfigFile('.mcp.json', { cwd: dir, within: dir })).rejects.toThrow(/larger than 32 MB$/);
  });

  it('names a syntax error by its line, never quoting the file', async () => {
    await writeFile(path.join(dir, 'a.json'), '{\n"mcpServers": {\n  "s": PRIVATE-KEY-MATERIAL }');
    await expect(readConfigFile('a.json', { cwd: dir })).rejects.toThrow(/^a\.json: not valid JSON \(\w+ at line 3\)$/);
  });
});

describe('a configuration of 40,000 entries', () => {
  it('gives every entry its own line', () => {
    const count = 40_000;
    const lines = ['{', '  "mcpServers": {'];
    for (let i = 0; i < count; i++) {
      lines.push(`    "server-${i}": { "command": "npx", "args": ["-y", "pkg-${i}"] }${i < count - 1 ? ',' : ''}`);
    }
    lines.push('  }', '}');
    const entries = parseConfigFile('.mcp.json', lines.join('\n'));
    expect(entries).toHaveLength(count);
    expect(entries.every((entry, i) => entry.line === i + 3 && entry.args[1] === `pkg-${i}`)).toBe(true);
  });

  it('finds lines by a table made once: the line of any offset, in as many steps as a binary search', () => {
    const text = 'a\nbb\n\nccc\n';
    const lineOf = lineTable(text);
    expect([0, 1, 2, 4, 5, 6, 9, 10].map(lineOf)).toEqual([1, 1, 2, 2, 3, 4, 4, 5]);
  });
});
