/**
 * Reading a policy file kept in the repository (`src/cli/policy-file.ts`): found at the checked folder's root,
 * read with the configurations' bounded reader, and refused in one line naming the file and the member when it
 * cannot be used, whatever its parser accepts or chokes on.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findPolicyFile, PolicyFileError, readPolicyFile } from '../../src/cli/policy-file.js';
import { makeTempDir } from '../support/temp.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('policy-file');
});

/** A folder holding `files`; the policy it reads, or the one line it refuses it with. */
async function outcome(name: string, files: Record<string, string>): Promise<unknown> {
  const folder = path.join(dir, name);
  await mkdir(folder, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(folder, file), text);
  const found = findPolicyFile(folder);
  if (found === undefined) return undefined;
  try {
    return await readPolicyFile(found, folder, folder);
  } catch (error) {
    if (!(error instanceof PolicyFileError)) throw error;
    expect(error.message.split('\n')).toHaveLength(1);
    return error.message;
  }
}

describe('finding the policy file', () => {
  it('reads .mcp-trust.json first, then .mcp-trust.yaml, then .mcp-trust.yml, and nothing else', async () => {
    expect(await outcome('none', { 'mcp-trust.json': '{"strict": true}' })).toBeUndefined();
    expect(await outcome('yml', { '.mcp-trust.yml': 'strict: true\n' })).toMatchObject({ strict: true });
    const both = { '.mcp-trust.json': '// the gate\n{"min_score": 50,}', '.mcp-trust.yaml': 'min_score: 70\n' };
    expect(await outcome('both', both)).toMatchObject({ min_score: 50 });
  });

  it('refuses a found policy file that is a link out of the checked folder', async () => {
    const folder = path.join(dir, 'linked');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(dir, 'outside.json'), '{"min_score": 0}');
    await symlink(path.join(dir, 'outside.json'), path.join(folder, '.mcp-trust.json'));
    await expect(readPolicyFile('.mcp-trust.json', folder, folder)).rejects.toThrow(
      /^\.mcp-trust\.json: refused: it is a link to a file outside the working folder/,
    );
  });
});

describe('a policy file the check cannot use', () => {
  it.each([
    [
      '.mcp-trust.json',
      '{"allow": ' + '['.repeat(100_000) + ']'.repeat(100_000) + '}',
      /^\.mcp-trust\.json: not valid JSON \(nested too deeply\)$/,
    ],
    [
      '.mcp-trust.yaml',
      'allow: ' + '['.repeat(20_000) + ']'.repeat(20_000) + '\n',
      /^\.mcp-trust\.yaml: not valid YAML/,
    ],
    [
      '.mcp-trust.yaml',
      'a: &a [x]\n' + Array.from({ length: 120 }, (_, i) => `b${i}: *a`).join('\n'),
      /^\.mcp-trust\.yaml: not valid YAML/,
    ],
    ['.mcp-trust.json', '["strict"]', /^\.mcp-trust\.json: a policy is an object of members/],
    ['.mcp-trust.json', '{"strict": "yes"}', /^\.mcp-trust\.json: policy\.strict must be true or false$/],
    ['.mcp-trust.json', '{"allow": ["pkg:nowhere"]}', /^\.mcp-trust\.json: policy\.allow\.0: /],
    [
      '.mcp-trust.json',
      '{"exceptions": [{"url": "https://mcp.example/mcp", "reason": "trial", "until": "2026-02-30"}]}',
      /^\.mcp-trust\.json: policy\.exceptions\.0\.until: until must be a date/,
    ],
    [
      '.mcp-trust.yaml',
      'exceptions:\n  - server: a.b/c\n    until: 2026-12-31\n',
      /^\.mcp-trust\.yaml: policy\.exceptions\.0\.reason: every exception needs a reason$/,
    ],
  ])('refuses %s holding %s in one line', async (file, text, message) => {
    expect(await outcome(`bad-${file}-${text.length}`, { [file]: text })).toMatch(message);
  });
});
