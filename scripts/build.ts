/**
 * `npm run build -- --input "<glob>" --out <dir>`: validate a dataset and publish its snapshot.
 * With no arguments it builds the committed dataset (`data/*.json`) into the default snapshot folder.
 * Every failure is a clear message and a non-zero exit; the previous snapshot is then left untouched.
 */
import { parseArgs } from 'node:util';
import { buildSnapshot } from '../src/snapshot/build.js';
import { DEFAULT_INPUT_GLOB, DEFAULT_SNAPSHOT_DIR } from '../src/snapshot/paths.js';
import { InputError } from '../src/snapshot/read-input.js';

const USAGE = 'usage: npm run build -- [--input "<glob>"] [--out <dir>]';

async function main(): Promise<number> {
  let values: { input?: string | undefined; out?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      options: { input: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`build: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const input = values.input ?? DEFAULT_INPUT_GLOB;
  const out = values.out ?? DEFAULT_SNAPSHOT_DIR;
  const started = performance.now();
  try {
    const manifest = await buildSnapshot({ input, out });
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    console.log(`built snapshot ${manifest.snapshot_id}: ${manifest.record_count} records from "${input}" into ${out} in ${seconds} s`);
    return 0;
  } catch (error) {
    if (error instanceof InputError) {
      console.error(`build: refused, nothing was published:\n${error.message}`);
      return 1;
    }
    console.error(`build: failed, nothing was published: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main();
