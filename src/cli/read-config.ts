/** Reading a configuration file from disk, for the CLI (the parsing itself runs in the browser too). */
import { readFile } from 'node:fs/promises';
import { type ConfigEntry, ConfigFileError, parseConfigFile } from './config-files.js';

/** Read and parse one configuration file. */
export async function readConfigFile(file: string): Promise<ConfigEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigFileError(`${file}: cannot read it (${code === 'ENOENT' ? 'no such file' : (code ?? 'error')})`);
  }
  return parseConfigFile(file, text);
}
