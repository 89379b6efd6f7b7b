/**
 * Reading NDJSON input: lines split across the 1 MiB chunks the file is read in (multi-byte characters
 * too), CRLF and lone CR line breaks as readline took them, blank lines, a last line without a line feed,
 * and errors that name the right line.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDataset } from '../../src/snapshot-build/read-input.js';
import { makeRecord } from '../support/records.js';
import { makeTempDir } from '../support/temp.js';

async function ndjson(text: string): Promise<string> {
  const dir = await makeTempDir('mts-ndjson-');
  await writeFile(path.join(dir, 'servers.ndjson'), text);
  return path.join(dir, '*.ndjson');
}

const line = (name: string, description?: string) =>
  JSON.stringify(makeRecord({ name, ...(description === undefined ? {} : { description }) }));

describe('NDJSON input', () => {
  it('reads every record of a file larger than a chunk, with lines and characters across chunk ends', async () => {
    // About 2.5 MiB of records whose descriptions hold multi-byte characters, so chunk ends fall mid-line
    // and mid-character.
    const lines = Array.from({ length: 3000 }, (_, i) =>
      line(`com.acme/server-${i}`, `Größe ✓ ${'é'.repeat(300 + (i % 97))}`),
    );
    const { records } = await readDataset(await ndjson(lines.join('\n') + '\n'));
    expect(records).toHaveLength(3000);
    expect(records[2999]!.name).toBe('com.acme/server-2999');
    expect(records[1234]!.description).toBe(`Größe ✓ ${'é'.repeat(300 + (1234 % 97))}`);
  });

  it('takes CRLF, a lone CR and blank lines as line breaks, and a last line without a line feed', async () => {
    const text = `${line('com.acme/a')}\r\n\r\n${line('com.acme/b')}\r${line('com.acme/c')}\n\n${line('com.acme/d')}`;
    const { records } = await readDataset(await ndjson(text));
    expect(records.map((record) => record.name)).toEqual(['com.acme/a', 'com.acme/b', 'com.acme/c', 'com.acme/d']);
  });

  it('names the line that is not JSON, counting lines as readline does', async () => {
    const text = `${line('com.acme/a')}\r\n\n${line('com.acme/b')}\r{oops\n`;
    await expect(readDataset(await ndjson(text))).rejects.toThrow(/servers\.ndjson: line 4 is not valid JSON/);
  });

  it('refuses a line longer than any record could be', async () => {
    await expect(readDataset(await ndjson('x'.repeat(17 * 1024 * 1024)))).rejects.toThrow(
      /servers\.ndjson: line 1 is longer than 16777216 characters/,
    );
  });
});
