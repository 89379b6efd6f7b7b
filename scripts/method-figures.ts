/**
 * `npx tsx scripts/method-figures.ts [--write]`: the figures of mts-2 beside the upstream method on the
 * committed dataset (`data/servers.json`): the share of all registry servers that pass the default policy
 * under each, the bands, the confidence, the repository evidence. `--write` puts them into docs/method.md
 * (between its `method-figures` markers, and the rule table between its `method-rules` markers); test/scoring/method-figures.test.ts holds the document to them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { figuresMarkdown, methodFigures, rulesMarkdown, withBlock } from '../src/snapshot-build/method-figures.js';
import { runMain } from './lib/main.js';
import { OperatorError } from '../src/errors/operator-error.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCUMENT = path.join(ROOT, 'docs', 'method.md');

async function main(): Promise<number> {
  try {
    const write = process.argv.includes('--write');
    const raws = JSON.parse(await readFile(path.join(ROOT, 'data', 'servers.json'), 'utf8')) as unknown[];
    const markdown = figuresMarkdown(await methodFigures(raws, ROOT));
    console.log(markdown);
    if (write) {
      const document = withBlock(await readFile(DOCUMENT, 'utf8'), 'method-figures', markdown);
      await writeFile(DOCUMENT, withBlock(document, 'method-rules', rulesMarkdown()));
      console.log(`wrote ${path.relative(process.cwd(), DOCUMENT)}`);
    }
    return 0;
  } catch (error) {
    throw new OperatorError(`method-figures: ${(error as Error).message}`);
  }
}

runMain(main);
