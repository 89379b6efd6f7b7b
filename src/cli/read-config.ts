/**
 * Reading a configuration file from disk, for the CLI (the parsing itself runs in the browser too). A CI job
 * checks files a pull request may have written, so only a regular file is read (opened without blocking and
 * judged by the opened handle, so a FIFO cannot hang the job and a device such as `/dev/zero` is not
 * streamed), never more than `MAX_CONFIG_BYTES`, and a file the check found by itself in the working folder
 * must really lie in it (a symlink out of the folder is refused; a file named on the command line may be
 * anywhere).
 */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { type ConfigEntry, ConfigFileError, parseConfigFile } from './config-files.js';

/** The largest configuration file read: far above any real one (Claude Code's `~/.claude.json` included). */
export const MAX_CONFIG_BYTES = 32 * 1024 * 1024;

export interface ReadConfigOptions {
  /** Where a relative `file` is (default: the process's working folder). */
  cwd?: string;
  /** The folder the file's real path must lie in; undefined for a file named explicitly. */
  within?: string;
  /** What messages call the file (default: `file` as given). */
  name?: string;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'error';

function cannotRead(file: string, error: unknown): ConfigFileError {
  const code = errorCode(error);
  return new ConfigFileError(`${file}: cannot read it (${code === 'ENOENT' ? 'no such file' : code})`);
}

/** What a file that is not a regular one is, in words. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'folder';
  if (stats.isFIFO()) return 'named pipe';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  if (stats.isSocket()) return 'socket';
  return 'special file';
}

/** The text of `file`, with the rules above; a ConfigFileError (one escaped line) for anything refused. */
export async function readConfigText(given: string, options: ReadConfigOptions = {}): Promise<string> {
  const full = path.resolve(options.cwd ?? process.cwd(), given);
  const file = options.name ?? given;
  if (options.within !== undefined) {
    let real: string;
    let root: string;
    try {
      [real, root] = await Promise.all([realpath(full), realpath(options.within)]);
    } catch (error) {
      throw cannotRead(file, error);
    }
    if (real !== root && !real.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) {
      throw new ConfigFileError(
        `${file}: refused: it is a link to a file outside the working folder; name it to check it`,
      );
    }
  }
  let handle: FileHandle;
  try {
    handle = await open(full, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw cannotRead(file, error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new ConfigFileError(`${file}: refused: it is a ${kindOf(stats)}, not a regular file`);
    const tooLarge = `${file}: refused: it is larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MB`;
    if (stats.size > MAX_CONFIG_BYTES) throw new ConfigFileError(tooLarge);
    // One byte more than the file said, to notice a file that grew past the cap while it was read.
    const buffer = Buffer.alloc(Math.min(stats.size, MAX_CONFIG_BYTES) + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled === buffer.length) {
      throw new ConfigFileError(filled > MAX_CONFIG_BYTES ? tooLarge : `${file}: it changed while it was read`);
    }
    return buffer.toString('utf8', 0, filled);
  } catch (error) {
    if (error instanceof ConfigFileError) throw error;
    throw cannotRead(file, error);
  } finally {
    await handle.close();
  }
}

/** Read and parse one configuration file. */
export async function readConfigFile(file: string, options: ReadConfigOptions = {}): Promise<ConfigEntry[]> {
  return parseConfigFile(file, await readConfigText(file, options));
}
