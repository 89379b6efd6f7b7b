/**
 * What only the memory store does: its key file, shared by `npm start` and `npm run keys`. (The behaviour
 * every store shares is in the contract suite.)
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateKey, hashKey } from '../../src/keys/keys.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import type { KeyRecord } from '../../src/keys/record.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mts-key-file-'));
  file = path.join(dir, 'nested', 'keys.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const record = (key: string, label = 'test'): KeyRecord => ({
  hash: hashKey(key),
  plan: 'free',
  label,
  created_at: '2026-03-10T12:00:00.000Z',
});

describe('the memory store key file', () => {
  it('answers with no keys when the file does not exist yet, and creates it (and its folder) on the first key', async () => {
    const store = createMemoryStore({ keysFile: file });
    expect(await store.listKeys()).toEqual([]);
    await store.addKey(record(generateKey()));
    expect((await stat(file)).isFile()).toBe(true);
  });

  it('holds hashes only, never a key, and is readable by its owner only', async () => {
    const key = generateKey();
    await createMemoryStore({ keysFile: file }).addKey(record(key));
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(key);
    expect(text).toContain(hashKey(key));
    expect((await stat(file)).mode & 0o077).toBe(0);
  });

  it('lets a second process see a key the first one added, on the next lookup', async () => {
    const server = createMemoryStore({ keysFile: file });
    const cli = createMemoryStore({ keysFile: file });
    const key = generateKey();
    expect(await server.findKey(hashKey(key))).toBeUndefined();
    await cli.addKey(record(key));
    expect((await server.findKey(hashKey(key)))?.label).toBe('test');
  });

  it('stops finding a key another process revoked within about a second', async () => {
    const server = createMemoryStore({ keysFile: file });
    const cli = createMemoryStore({ keysFile: file });
    const key = generateKey();
    await cli.addKey(record(key));
    expect(await server.findKey(hashKey(key))).toBeDefined();
    expect(await cli.revokeKey(hashKey(key).slice(0, 8))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await server.findKey(hashKey(key))).toBeUndefined();
  });

  it('keeps the keys it had when the file is broken by hand, warns, and reads it again once fixed', async () => {
    const warnings: string[] = [];
    const store = createMemoryStore({ keysFile: file, warn: (message) => warnings.push(message) });
    const key = generateKey();
    await store.addKey(record(key));
    const good = await readFile(file, 'utf8');
    await writeFile(file, '{ not json');
    expect(await store.findKey(hashKey('another key'))).toBeUndefined(); // a miss re-reads the file
    expect(await store.findKey(hashKey(key))).toBeDefined();
    expect(warnings.join('\n')).toContain('not valid JSON');

    const later = generateKey();
    const fixed = JSON.parse(good) as { version: 1; keys: KeyRecord[] };
    fixed.keys.push(record(later, 'later'));
    await writeFile(file, JSON.stringify(fixed));
    expect((await store.findKey(hashKey(later)))?.label).toBe('later');
  });

  it('keeps every key when 50 are added at once by two processes, and a revoke among them holds', async () => {
    // Two stores on one file are two processes as far as the file is concerned: only the lock file orders
    // their writes (each store orders its own).
    const server = createMemoryStore({ keysFile: file });
    const cli = createMemoryStore({ keysFile: file });
    const revoked = generateKey();
    await cli.addKey(record(revoked, 'to revoke'));
    const keys = Array.from({ length: 50 }, () => generateKey());
    const [revokedOk] = await Promise.all([
      cli.revokeKey(hashKey(revoked).slice(0, 12)),
      ...keys.map((key, index) => (index % 2 === 0 ? server : cli).addKey(record(key))),
    ]);
    expect(revokedOk).toBe(true);
    const fresh = createMemoryStore({ keysFile: file });
    const listed = new Set((await fresh.listKeys()).map((found) => found.hash));
    expect(listed.size).toBe(50);
    for (const key of keys) expect(listed.has(hashKey(key))).toBe(true);
    expect(listed.has(hashKey(revoked))).toBe(false);
    await expect(stat(`${file}.lock`)).rejects.toThrow(/ENOENT/);
  });

  it('takes over a lock left by a process that is gone, and says so in one line when a live one holds it', async () => {
    const store = createMemoryStore({ keysFile: file });
    await store.addKey(record(generateKey()));
    await writeFile(`${file}.lock`, '999999999'); // no such process
    await store.addKey(record(generateKey()));
    expect(await store.listKeys()).toHaveLength(2);

    await writeFile(`${file}.lock`, String(process.ppid)); // alive, and the lock is fresh
    const refused = await store.addKey(record(generateKey())).catch((error: Error) => error);
    expect(String(refused)).toMatch(/^KeyFileError: Cannot write the key file .*keys\.json\.lock has been held/);
    expect(String(refused)).not.toContain('\n');
    expect(await createMemoryStore({ keysFile: file }).listKeys()).toHaveLength(2);
  });

  it('refuses a record that is not a valid key record', async () => {
    const store = createMemoryStore({ keysFile: file });
    await expect(store.addKey({ ...record(generateKey()), hash: 'not-a-hash' })).rejects.toThrow(/hash/);
  });

  it('answers StoreUnavailableError once closed', async () => {
    const store = createMemoryStore();
    await store.close();
    await expect(store.increment('x', Date.now() + 1000)).rejects.toThrow(/closed/);
  });
});
