/**
 * The index of the records artifact (`records-index.bin`): the length of every line, so a record is found
 * without scanning the file, and a SHA-256 per block of BLOCK_BYTES, so a large records file is checked a
 * block at a time (the blocks a Get Server answer reads, before it is served; all of them in the
 * background) instead of hashing a gigabyte before the first answer. The index itself is checked against
 * the manifest like every artifact, so each block's hash is as trustworthy as the file's.
 */
import { createHash, type Hash } from 'node:crypto';
import { decodeU32, type Range, U32Writer } from './binary.js';

/** Bytes per checked block: one block's hash is small beside a request's budget. */
export const BLOCK_BYTES = 1 << 20;
const WORDS_PER_HASH = 8;

export interface RecordsIndex {
  blockBytes: number;
  /** Bytes of each line, its newline included, in record-id order. */
  lengths: Uint32Array;
  /** SHA-256 of each block, as eight little-endian 32-bit words. */
  hashes: Uint32Array;
}

/** Whether `digest` (32 bytes) is block `block`'s hash in `index`. */
export function blockHashMatches(index: RecordsIndex, block: number, digest: Buffer): boolean {
  for (let word = 0; word < WORDS_PER_HASH; word++) {
    if (index.hashes[block * WORDS_PER_HASH + word] !== digest.readUInt32LE(word * 4)) return false;
  }
  return true;
}

export function blockCount(index: RecordsIndex): number {
  return index.hashes.length / WORDS_PER_HASH;
}

/** Hashes the records file's bytes block by block as the build writes them, and notes each line's length. */
export class RecordsIndexWriter {
  private readonly lengths: number[] = [];
  private readonly words: number[] = [];
  private hash: Hash = createHash('sha256');
  private inBlock = 0;

  /** Add the bytes of whole lines (each ending in a newline). */
  add(bytes: Buffer): void {
    for (let start = 0, end = bytes.indexOf(0x0a); end >= 0; start = end + 1, end = bytes.indexOf(0x0a, start))
      this.lengths.push(end + 1 - start);
    for (let at = 0; at < bytes.length;) {
      const take = Math.min(BLOCK_BYTES - this.inBlock, bytes.length - at);
      this.hash.update(bytes.subarray(at, at + take));
      this.inBlock += take;
      at += take;
      if (this.inBlock === BLOCK_BYTES) this.endBlock();
    }
  }

  private endBlock(): void {
    const digest = this.hash.digest();
    for (let word = 0; word < WORDS_PER_HASH; word++) this.words.push(digest.readUInt32LE(word * 4));
    this.hash = createHash('sha256');
    this.inBlock = 0;
  }

  encode(): Buffer {
    if (this.inBlock > 0) this.endBlock();
    const writer = new U32Writer();
    return writer.encode({
      block_bytes: BLOCK_BYTES,
      lengths: writer.add(this.lengths),
      hashes: writer.add(this.words),
    });
  }
}

export function decodeRecordsIndex(bytes: Buffer): RecordsIndex {
  const artifact = decodeU32(bytes);
  const directory = artifact.directory as { block_bytes?: unknown; lengths?: Range; hashes?: Range };
  if (typeof directory.block_bytes !== 'number' || directory.block_bytes <= 0) throw new Error('no block size');
  const hashes = artifact.slice(directory.hashes ?? [0, -1]);
  if (hashes.length % WORDS_PER_HASH !== 0) throw new Error('a block hash cut short');
  return { blockBytes: directory.block_bytes, lengths: artifact.slice(directory.lengths ?? [0, -1]), hashes };
}
