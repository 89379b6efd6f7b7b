/**
 * The embedded default store (`STORE=memory`): daily counters in this process's memory, issued keys in a
 * local JSON file that `npm start` and `npm run keys` share (default `.local/keys.json`, gitignored).
 *
 * - Counters live in a Map. An increment is a read and a write with no `await` between them, and Node runs
 *   one piece of JavaScript at a time, so it is atomic within the process. They are right on one machine
 *   only: every Vercel instance has its own memory, which is what the Redis and Upstash stores are for.
 * - The key file holds key hashes only. It is written to a temporary file and renamed over the old one, so
 *   a reader never sees half a file, and it is re-read when it changes on disk, so a key created by the CLI
 *   works in a running server at once, and a revoked key stops working within a second.
 * - Every change is a read, a change and a write of the whole file, so writers take turns: one at a time
 *   within the process, and under a lock file (`<file>.lock`, `file-lock.ts`) across processes, with the
 *   file read again once the lock is held. Otherwise a key issued at the same moment as another, or a revoke
 *   during sign-ups, would be written over by a writer that read the file before it.
 */
import { OperatorError, UsageError } from '../errors/operator-error.js';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { writeFileAtomically } from '../format/atomic-write.js';
import { HashPrefixSchema, KeyRecordSchema } from '../keys/keys.js';
import type { KeyRecord } from '../keys/record.js';
import { createSerialQueue, FileLockTimeout, withFileLock } from './file-lock.js';
import { createMemoryNotify } from './memory-notify.js';
import { createMemoryUnknown } from './memory-unknown.js';
import { type Store, StoreUnavailableError } from './types.js';

/** The key file (`KEYS_FILE`) cannot be read, parsed or written: one line naming the file and why. */
export class KeyFileError extends OperatorError {
  override name = 'KeyFileError';
}

function unreadable(keysFile: string, error: unknown): KeyFileError {
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new KeyFileError(
    `Cannot read the key file ${keysFile} (KEYS_FILE): ${reason}; set KEYS_FILE to a file in a readable folder`,
    { cause: error },
  );
}

export interface MemoryStoreOptions {
  /** The key file; when omitted, keys live in memory only (tests). */
  keysFile?: string;
  /** Clock for counter expiry, epoch milliseconds; default `Date.now`. Tests pass the gateway's fixed clock. */
  now?: () => number;
  /** Where a problem with the key file is reported; default stderr. */
  warn?: (message: string) => void;
}

/** The key file's format, version 1. */
const KeysFileSchema = z.strictObject({
  version: z.literal(1),
  keys: z.array(KeyRecordSchema),
});

/**
 * How long a found key is trusted before the file is checked again (a revocation takes effect within this).
 * A key that is NOT found always triggers a check, so a newly created key works on its first request.
 */
const RECHECK_MS = 1000;

/** Expired counters are swept after this many increments, so the Map stays the size of one day's keys. */
const SWEEP_EVERY = 10_000;

interface Counter {
  value: number;
  expireAtMs: number;
}

/** Identity of the file's current version: a rename gives a new inode, so this changes on every write. */
interface FileVersion {
  ino: number;
  mtimeMs: number;
  size: number;
}

function sameVersion(a: FileVersion | undefined, b: FileVersion | undefined): boolean {
  return a?.ino === b?.ino && a?.mtimeMs === b?.mtimeMs && a?.size === b?.size;
}

function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** Creates the memory store. Reads nothing yet: the key file is read on first use. */
export function createMemoryStore(options: MemoryStoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  const warn = options.warn ?? ((message: string) => console.error(message));
  const keysFile = options.keysFile === undefined ? undefined : path.resolve(options.keysFile);
  const counters = new Map<string, Counter>();
  let incrementsSinceSweep = 0;
  let closed = false;

  let keys = new Map<string, KeyRecord>();
  let version: FileVersion | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let reloading: Promise<void> | undefined;
  /** This process's writers of the key file, one at a time. */
  const inTurn = createSerialQueue();
  /** Whether the file was ever read whole: before that, a broken file has no earlier keys to fall back on. */
  let everRead = false;

  function assertOpen(what: string): void {
    if (closed) throw new StoreUnavailableError(`memory ${what}: the store is closed`);
  }

  async function readFile(): Promise<{ records: KeyRecord[]; version: FileVersion | undefined }> {
    if (keysFile === undefined) return { records: [...keys.values()], version: undefined };
    let stat: FileVersion;
    let text: string;
    try {
      stat = await fs.stat(keysFile);
      text = await fs.readFile(keysFile, 'utf8');
    } catch (error) {
      if (isMissingFile(error)) return { records: [], version: undefined };
      throw unreadable(keysFile, error);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new KeyFileError(
        `The key file ${keysFile} (KEYS_FILE) is not valid JSON; fix or delete it (keys are then lost)`,
      );
    }
    const parsed = KeysFileSchema.safeParse(json);
    if (!parsed.success) {
      throw new KeyFileError(`The key file ${keysFile} (KEYS_FILE) is invalid: ${z.prettifyError(parsed.error)}`);
    }
    return { records: parsed.data.keys, version: { ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size } };
  }

  /** Re-read the file when its version changed. Concurrent callers share one reload. */
  function refresh(): Promise<void> {
    if (keysFile === undefined) return Promise.resolve();
    reloading ??= (async () => {
      try {
        checkedAt = performance.now();
        let current: FileVersion | undefined;
        try {
          const stat = await fs.stat(keysFile);
          current = { ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size };
        } catch (error) {
          if (!isMissingFile(error)) throw unreadable(keysFile, error);
        }
        if (sameVersion(current, version) && (current !== undefined || keys.size === 0)) return;
        try {
          const file = await readFile();
          keys = new Map(file.records.map((record) => [record.hash, record]));
          version = file.version;
          everRead = true;
        } catch (error) {
          if (!everRead) throw error;
          // A hand-edited, broken file: keep serving the keys last read (a typo must not lock every key
          // out), say so once per version of the file, and pick the file up again when it is fixed.
          version = current;
          warn(`${(error as Error).message}; keeping the ${keys.size} key(s) read before`);
        }
      } finally {
        reloading = undefined;
      }
    })();
    return reloading;
  }

  /**
   * Read, change and write the file back atomically (temp file + rename), then adopt the new content.
   * `change` returns undefined when there is nothing to write.
   */
  function rewrite(change: (records: KeyRecord[]) => KeyRecord[] | undefined): Promise<void> {
    if (keysFile === undefined) return inTurn(() => rewriteLocked(change));
    const file = keysFile;
    return inTurn(async () => {
      await fs.mkdir(path.dirname(file), { recursive: true }).catch(() => undefined);
      try {
        await withFileLock(`${file}.lock`, () => rewriteLocked(change));
      } catch (error) {
        // What the change itself refused (an ambiguous prefix) or the write's own one line passes as it is.
        if (error instanceof OperatorError) throw error;
        const reason =
          error instanceof FileLockTimeout
            ? `${error.message}; if no other process is writing it, delete ${file}.lock`
            : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
        throw new KeyFileError(`Cannot write the key file ${file} (KEYS_FILE): ${reason}`, { cause: error });
      }
    });
  }

  /** `rewrite`'s work, with the lock held: the file is read here, never before, so no change is lost. */
  async function rewriteLocked(change: (records: KeyRecord[]) => KeyRecord[] | undefined): Promise<void> {
    const current = await readFile();
    const records = change(current.records);
    if (records === undefined) return;
    if (keysFile !== undefined) {
      const body = `${JSON.stringify({ version: 1, keys: records }, null, 2)}\n`;
      try {
        await writeFileAtomically(keysFile, body, { mode: 0o600 });
      } catch (error) {
        const cause = (error as Error).cause ?? error;
        const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
        throw new KeyFileError(
          `Cannot write the key file ${keysFile} (KEYS_FILE): ${reason}; set KEYS_FILE to a file in a writable folder`,
          { cause: error },
        );
      }
    }
    keys = new Map(records.map((record) => [record.hash, record]));
    everRead = true;
    version = undefined; // Unknown until the next stat: forces a re-read that confirms what is on disk.
    checkedAt = Number.NEGATIVE_INFINITY;
  }

  const { clear: clearNotify, ...notify } = createMemoryNotify(now, assertOpen);
  const { clear: clearUnknown, ...unknown } = createMemoryUnknown(now, assertOpen);

  function sweep(nowMs: number): void {
    for (const [key, counter] of counters) if (counter.expireAtMs <= nowMs) counters.delete(key);
  }

  return {
    kind: 'memory',
    ...notify,
    ...unknown,

    async increment(key, expireAtMs) {
      assertOpen('increment');
      const nowMs = now();
      if (++incrementsSinceSweep >= SWEEP_EVERY) {
        incrementsSinceSweep = 0;
        sweep(nowMs);
      }
      const counter = counters.get(key);
      if (counter === undefined || counter.expireAtMs <= nowMs) {
        counters.set(key, { value: 1, expireAtMs });
        return 1;
      }
      return ++counter.value;
    },

    async reserve(key, amount, limit, expireAtMs) {
      assertOpen('reserve');
      const nowMs = now();
      const counter = counters.get(key);
      const current = counter === undefined || counter.expireAtMs <= nowMs ? 0 : counter.value;
      if (current + amount > limit) return { granted: false, count: current };
      if (current === 0) counters.set(key, { value: amount, expireAtMs });
      else counter!.value += amount;
      return { granted: true, count: current + amount };
    },

    async findKey(hash) {
      assertOpen('findKey');
      const found = keys.get(hash);
      if (found === undefined || performance.now() - checkedAt > RECHECK_MS) {
        await refresh();
        return keys.get(hash);
      }
      return found;
    },

    async addKey(record) {
      assertOpen('addKey');
      const valid = KeyRecordSchema.parse(record);
      await rewrite((records) => [...records.filter((existing) => existing.hash !== valid.hash), valid]);
    },

    async listKeys() {
      assertOpen('listKeys');
      await refresh();
      return [...keys.values()].sort(
        (a, b) => a.created_at.localeCompare(b.created_at) || a.hash.localeCompare(b.hash),
      );
    },

    async revokeKey(prefix) {
      assertOpen('revokeKey');
      const parsed = HashPrefixSchema.safeParse(prefix);
      if (!parsed.success) throw new UsageError(`revokeKey: ${z.prettifyError(parsed.error)}`);
      const wanted = parsed.data;
      let revoked = false;
      await rewrite((records) => {
        const matches = records.filter((record) => record.hash.startsWith(wanted));
        if (matches.length > 1) {
          throw new UsageError(`revokeKey: prefix ${wanted} matches ${matches.length} keys; give more characters`);
        }
        revoked = matches.length === 1;
        return revoked ? records.filter((record) => !record.hash.startsWith(wanted)) : undefined;
      });
      return revoked;
    },

    async ping() {
      assertOpen('ping');
    },

    async dataKept() {
      assertOpen('dataKept');
      return true; // this process's own memory, and a file on disk: nothing else can lose them
    },

    async close() {
      closed = true;
      counters.clear();
      clearNotify();
      clearUnknown();
    },
  };
}
