/**
 * Binary artifacts: a JSON directory and one array of unsigned 32-bit integers, so the indexes a list needs
 * (record ids in sort order, filter postings, a score per record) are usable the moment they are read and
 * checked, as typed-array views on the file's bytes, with nothing to parse and half the memory of arrays of
 * JavaScript numbers.
 *
 * Layout: the 4 bytes `MTS1`, the directory's length in bytes (u32, little-endian), the directory (UTF-8
 * JSON), zero bytes up to a multiple of 4, then the integers (u32, little-endian). The directory names
 * ranges of the integers as `[start, length]`, in whatever shape the artifact needs.
 */
import { endianness } from 'node:os';

const MAGIC = 'MTS1';

/** Why bytes are not such an artifact; the caller names the file. */
export class BinaryArtifactError extends Error {}

/** A range of the integers: `[start, length]`. */
export type Range = [number, number];

/** Builds the integers of an artifact and the ranges that name them. */
export class U32Writer {
  private readonly chunks: Uint32Array[] = [];
  private length = 0;

  /** Append `values`; returns the range that names them. */
  add(values: ArrayLike<number>): Range {
    const chunk = Uint32Array.from(values as ArrayLike<number>);
    this.chunks.push(chunk);
    const range: Range = [this.length, chunk.length];
    this.length += chunk.length;
    return range;
  }

  /** Append raw bytes (text), padded to whole integers; returns the range of integers that holds them. */
  addBytes(bytes: Buffer): Range {
    const padded = Buffer.alloc(Math.ceil(bytes.length / 4) * 4);
    bytes.copy(padded);
    const words = new Uint32Array(padded.length / 4);
    for (let i = 0; i < words.length; i++) words[i] = padded.readUInt32LE(i * 4);
    return this.add(words);
  }

  /** The artifact's bytes, with `directory` as its JSON directory. */
  encode(directory: unknown): Buffer {
    const head = Buffer.from(JSON.stringify(directory), 'utf8');
    const dataStart = align4(8 + head.length);
    const bytes = Buffer.alloc(dataStart + this.length * 4);
    bytes.write(MAGIC, 0, 'latin1');
    bytes.writeUInt32LE(head.length, 4);
    head.copy(bytes, 8);
    let at = dataStart;
    const direct = endianness() === 'LE' && bytes.byteOffset % 4 === 0;
    for (const chunk of this.chunks) {
      if (direct) new Uint32Array(bytes.buffer, bytes.byteOffset + at, chunk.length).set(chunk);
      else for (let i = 0; i < chunk.length; i++) bytes.writeUInt32LE(chunk[i]!, at + i * 4);
      at += chunk.length * 4;
    }
    return bytes;
  }
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

/** A decoded artifact: its directory and its integers; `slice` views a range without copying. */
export interface U32Artifact {
  directory: unknown;
  values: Uint32Array;
  slice(range: Range): Uint32Array;
  /** The bytes a range added with `addBytes` holds (padding included), without copying. */
  bytes(range: Range): Buffer;
}

/** Read the artifact in `bytes` (already checked against the manifest). */
export function decodeU32(bytes: Buffer): U32Artifact {
  if (bytes.length < 8 || bytes.toString('latin1', 0, 4) !== MAGIC)
    throw new BinaryArtifactError('not a binary index artifact');
  const headLength = bytes.readUInt32LE(4);
  const dataStart = align4(8 + headLength);
  if (dataStart > bytes.length || (bytes.length - dataStart) % 4 !== 0)
    throw new BinaryArtifactError('truncated binary index artifact');
  let directory: unknown;
  try {
    directory = JSON.parse(bytes.toString('utf8', 8, 8 + headLength));
  } catch {
    throw new BinaryArtifactError("the binary index artifact's directory is not valid JSON");
  }
  const count = (bytes.length - dataStart) / 4;
  let values: Uint32Array;
  if (endianness() === 'LE' && (bytes.byteOffset + dataStart) % 4 === 0) {
    // A view on the bytes as read: no copy.
    values = new Uint32Array(bytes.buffer, bytes.byteOffset + dataStart, count);
  } else {
    values = new Uint32Array(count);
    for (let i = 0; i < count; i++) values[i] = bytes.readUInt32LE(dataStart + i * 4);
  }
  return {
    directory,
    values,
    slice([start, length]) {
      if (!(start >= 0 && length >= 0 && start + length <= count))
        throw new BinaryArtifactError('a range past the end of the binary index artifact');
      return values.subarray(start, start + length);
    },
    bytes(range) {
      const words = this.slice(range);
      return Buffer.from(words.buffer, words.byteOffset, words.byteLength);
    },
  };
}
