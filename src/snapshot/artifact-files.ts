/**
 * Writing an artifact file and knowing its hash and size, as the manifest records them: small ones in one
 * piece; large ones (the records, the history, the reverse-lookup table) a line at a time, in chunks of
 * about a megabyte, so that at a million records none of them is ever one string in memory.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { RecordTexts } from './record-texts.js';
import { RecordsIndexWriter } from './records-index.js';

export interface Written {
  sha256: string;
  bytes: number;
}

const CHUNK_CHARS = 1 << 20;

export async function writeText(file: string, text: string | Buffer): Promise<Written> {
  await writeFile(file, text);
  return { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) };
}

/** Write each of `lines` followed by a line feed; `onChunk` sees the bytes of whole lines as they are written. */
export async function writeLines(file: string, lines: Iterable<string>, onChunk?: (bytes: Buffer) => void): Promise<Written> {
  const stream = createWriteStream(file);
  const hash = createHash('sha256');
  let bytes = 0;
  let batch = '';
  const flush = async () => {
    const chunk = Buffer.from(batch);
    hash.update(chunk);
    onChunk?.(chunk);
    bytes += chunk.length;
    if (!stream.write(chunk)) await once(stream, 'drain');
    batch = '';
  };
  try {
    for (const line of lines) {
      batch += line + '\n';
      if (batch.length > CHUNK_CHARS) await flush();
    }
    await flush();
  } finally {
    stream.end();
    await once(stream, 'close');
  }
  return { sha256: hash.digest('hex'), bytes };
}

/**
 * One compact record per line, in the order `ids` (input positions, `Artifacts.inputIndex`), copied from
 * the records' texts; and the records' index (`records-index.ts`) made from the same bytes.
 */
export async function writeRecords(file: string, texts: RecordTexts, ids: ArrayLike<number>): Promise<Written & { index: Buffer }> {
  const index = new RecordsIndexWriter();
  const stream = createWriteStream(file);
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for (const chunk of texts.linesOf(ids)) {
      hash.update(chunk);
      index.add(chunk);
      bytes += chunk.length;
      // The chunk is reused for the next lines: the stream gets a copy.
      if (!stream.write(Buffer.from(chunk))) await once(stream, 'drain');
    }
  } finally {
    stream.end();
    await once(stream, 'close');
  }
  return { sha256: hash.digest('hex'), bytes, index: index.encode() };
}
