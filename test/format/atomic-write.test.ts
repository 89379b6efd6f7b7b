import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtomicWriteError, writeFilesAtomically } from '../../src/format/atomic-write.js';
import { jsonArrayLines, jsonArrayText } from '../../src/format/json-array-lines.js';
import { makeTempDir } from '../support/temp.js';

describe('writeFilesAtomically with a content in pieces', () => {
  it('writes the pieces one after another, as the whole text would be written', async () => {
    const dir = await makeTempDir('atomic-write-');
    const items = Array.from({ length: 5000 }, (_, i) => ({ name: `server-${i}`, note: 'é→'.repeat(i % 7) }));
    writeFilesAtomically([
      [path.join(dir, 'pieces.json'), jsonArrayLines(items)],
      [path.join(dir, 'whole.json'), jsonArrayText(items)],
    ]);
    const pieces = readFileSync(path.join(dir, 'pieces.json'), 'utf8');
    expect(pieces).toBe(readFileSync(path.join(dir, 'whole.json'), 'utf8'));
    expect(JSON.parse(pieces)).toEqual(items);
    expect(readdirSync(dir).sort()).toEqual(['pieces.json', 'whole.json']);
  });

  it('leaves every target as it was and no temporary file when the pieces fail midway', async () => {
    const dir = await makeTempDir('atomic-write-');
    const first = path.join(dir, 'first.json');
    const second = path.join(dir, 'second.json');
    writeFileSync(first, 'before\n');
    writeFileSync(second, 'before\n');
    function* failing(): Generator<string> {
      yield 'x'.repeat(200_000); // more than one write's batch: part of it is on the disk when the next throws
      throw new Error('a record that cannot be written');
    }
    expect(() =>
      writeFilesAtomically([
        [first, 'after\n'],
        [second, failing()],
      ]),
    ).toThrow(AtomicWriteError);
    expect(readFileSync(first, 'utf8')).toBe('before\n');
    expect(readFileSync(second, 'utf8')).toBe('before\n');
    expect(readdirSync(dir).sort()).toEqual(['first.json', 'second.json']);
  });

  it('writes an empty array as the whole text does', async () => {
    const dir = await makeTempDir('atomic-write-');
    writeFilesAtomically([[path.join(dir, 'empty.json'), jsonArrayLines([])]]);
    expect(readFileSync(path.join(dir, 'empty.json'), 'utf8')).toBe('[]\n');
    expect(existsSync(path.join(dir, 'empty.json'))).toBe(true);
  });
});
