/**
 * Every regular expression the project publishes (the OpenAPI document, the MCP tools' input and output
 * schemas) compiles in Python's `re` and means the same there as in ECMAScript: a Python MCP client that
 * validates schemas (`jsonschema`) must not refuse a tool. Go's RE2 reads the same subset (no `\p{...}`, no
 * lookaround), which the syntax check below keeps out.
 *
 * One difference no portable pattern can remove: Python's `$` also matches before a final newline. The
 * strings below hold none; a name or a timestamp never ends in one.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TRUST_TOOLS } from '../src/mcp/tools.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Every `pattern` string anywhere in a JSON value. */
function patternsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) patternsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === 'pattern' && typeof child === 'string') found.add(child);
      else patternsIn(child, found);
    }
  }
  return found;
}

const SAMPLES = [
  'io.github.github/github-mcp-server',
  'a/b',
  'a b/c',
  'a\u00a0b/c',
  'a\u3000b/c',
  'a\u200bb/c',
  'a\u0085b/c',
  'a\u001cb/c',
  'a\tb/c',
  'a/b/c',
  '/b',
  'é/ü',
  '\u0663/\u0664',
  '2026-02-21T22:49:33.106Z',
  '2026-02-21T22:49:33Z',
  '\u0662\u0660\u0662\u0666-02-21T22:49:33Z',
  '2026-02-21 22:49:33Z',
  'NO_SOURCE',
  'no_source',
  'license',
  'actively-maintained',
  'Actively-Maintained',
];

async function publishedPatterns(): Promise<string[]> {
  const document = JSON.parse(await readFile(path.join(ROOT, 'public', 'openapi.json'), 'utf8')) as unknown;
  const found = patternsIn(document);
  for (const tool of TRUST_TOOLS) {
    patternsIn(z.toJSONSchema(tool.input, { io: 'input' }), found);
    patternsIn(z.toJSONSchema(tool.output, { io: 'output' }), found);
  }
  return [...found].sort();
}

describe('published patterns', () => {
  it('use no syntax outside the subset ECMAScript, Python and RE2 share', async () => {
    for (const pattern of await publishedPatterns()) {
      expect(pattern, pattern).not.toMatch(/\\[pPdDsSwWbB]|\(\?[=!<]|\\u\{?[0-9a-fA-F]/);
    }
  });

  it('compile in Python and match exactly the same strings as in ECMAScript', async () => {
    const patterns = await publishedPatterns();
    expect(patterns.length).toBeGreaterThan(2);
    const script = [
      'import json, re, sys',
      'data = json.load(sys.stdin)',
      'print(json.dumps([[bool(re.search(p, s)) for s in data["samples"]] for p in data["patterns"]]))',
    ].join('\n');
    const python = spawnSync('python3', ['-c', script], {
      input: JSON.stringify({ patterns, samples: SAMPLES }),
      encoding: 'utf8',
    });
    expect(python.status, python.stderr).toBe(0);
    const inPython = JSON.parse(python.stdout) as boolean[][];
    patterns.forEach((pattern, index) => {
      const inJs = SAMPLES.map((sample) => new RegExp(pattern, 'u').test(sample));
      expect(inPython[index], `${pattern}\n${JSON.stringify(SAMPLES)}`).toEqual(inJs);
    });
  });
});
