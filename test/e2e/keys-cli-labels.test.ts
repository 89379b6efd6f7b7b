/**
 * Key labels and the terminal (issue 32, point 8): a label may hold no control character (C0, DEL, C1) and
 * no bidirectional formatting character, whoever sets it; one already stored is escaped by `list`.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateKey, hashKey } from '../../src/keys/keys.js';
import { makeTempDir } from '../support/temp.js';
import { runKeys } from './process.js';

const HOSTILE = ['\u0085', '\u009b31m', '\u202e', '\u2066', '\u200f', '\u001b[2J'];

describe('key labels in the keys CLI', { timeout: 120_000 }, () => {
  it('refuses a label with a C1 control or a bidirectional override', async () => {
    const env = { KEYS_FILE: path.join(await makeTempDir('mts-labels-'), 'keys.json') };
    for (const label of ['ok\u0085', 'evil\u202etxt.exe']) {
      const result = runKeys(['create', '--label', label], env);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('--label must not contain control characters or bidirectional');
      expect(result.stdout).not.toMatch(/mts_/);
    }
  });

  it('list prints a stored label with such characters escaped, never raw', async () => {
    const file = path.join(await makeTempDir('mts-labels-'), 'keys.json');
    const label = `a${HOSTILE.join('b')}z`;
    const record = { hash: hashKey(generateKey()), plan: 'free', label, created_at: '2026-03-10T12:00:00.000Z' };
    await writeFile(file, JSON.stringify({ version: 1, keys: [record] }));
    const result = runKeys(['list'], { KEYS_FILE: file });
    expect(result.status).toBe(0);
    const raw = [...result.stdout].filter((character) =>
      /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u.test(character),
    );
    expect(raw.filter((character) => character !== '\n')).toEqual([]);
    expect(result.stdout).toContain('a\\u{85}b\\u{9b}31mb\\u{202e}b\\u{2066}b\\u{200f}b\\u{1b}[2Jz');
  });
});
