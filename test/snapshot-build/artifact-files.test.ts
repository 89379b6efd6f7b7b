/**
 * Large artifacts written a line at a time (src/snapshot-build/artifact-files.ts): the file holds exactly the text
 * made in one piece, its hash and size are those of that text, and it reads back (json-lines.ts) to the
 * value written, members of every size and shape included.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeLines } from '../../src/snapshot-build/artifact-files.js';
import { jsonLinesOf, parseJsonLinesSync, toJsonLines } from '../../src/format/json-lines.js';
import { makeTempDir } from '../support/temp.js';

describe('writeLines', () => {
  it('writes the one-piece text of JSON lines, across many chunks, with its hash and size', async () => {
    const servers: Record<string, unknown> = {};
    // About 3 MB: several of writeLines' chunks and many lines of json-lines' chunking.
    for (let i = 0; i < 20_000; i++)
      servers[`com.acme/server-${i}`] = { name: `Server ${i} ✓`, points: [{ score: i % 101 }] };
    const value = { snapshots: [{ id: 'a' }], servers, empty: {}, list: [1, 2, 3], none: [] };
    const split = ['servers', 'empty', 'list', 'none'];
    const file = path.join(await makeTempDir('mts-lines-'), 'out.jsonl');

    const written = writeLines(file, jsonLinesOf(value, split));
    const text = toJsonLines(value, split);
    const bytes = await readFile(file);
    expect(bytes.toString('utf8')).toBe(text);
    expect(written).toEqual({
      sha256: createHash('sha256').update(text).digest('hex'),
      bytes: Buffer.byteLength(text),
    });
    expect(JSON.parse(JSON.stringify(parseJsonLinesSync(bytes)))).toEqual(value);
  });
});
