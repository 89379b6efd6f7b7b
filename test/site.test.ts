/**
 * The static site (`public/`) without a browser: what the page states and what its script knows stays in
 * step with the schema, the plan table and the dataset, and the page loads nothing from another origin and
 * never parses data as HTML. The browser test (test/browser/site.test.ts) covers what the page does.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../src/keys/plans.js';
import { TRUST_BANDS } from '../src/model/schema.js';

const PUBLIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'public');
const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'servers.json');

let html = '';
/** Every script of the site: the entry `app.js` and its modules in `public/js/`, path → text. */
const modules = new Map<string, string>();
/** All of them together, for checks that hold for every line of the site's code. */
let script = '';
beforeAll(async () => {
  html = await readFile(path.join(PUBLIC, 'index.html'), 'utf8');
  modules.set('app.js', await readFile(path.join(PUBLIC, 'app.js'), 'utf8'));
  for (const file of (await readdir(path.join(PUBLIC, 'js'))).sort()) {
    modules.set(`js/${file}`, await readFile(path.join(PUBLIC, 'js', file), 'utf8'));
  }
  script = [...modules.values()].join('\n');
});

describe('the page and its script', () => {
  it('is ES modules of at most 400 lines each, every one of them imported', () => {
    expect(modules.size).toBeGreaterThan(5);
    for (const [file, text] of modules) expect(text.split('\n').length, file).toBeLessThanOrEqual(401);
    for (const file of modules.keys()) {
      if (file === 'app.js') continue;
      const name = path.basename(file);
      expect(script, `${file} is imported by no module`).toMatch(
        new RegExp(`from '\\./(js/)?${name.replace('.', '\\.')}'`),
      );
    }
  });

  it('take the trust bands and the flags from the vocabulary the build writes, never a copy', async () => {
    expect(modules.get('js/words.js')).toContain("import { BANDS, FLAGS } from '../vocabulary.js';");
    const vocabulary = (await import(path.join(PUBLIC, 'vocabulary.js'))) as {
      BANDS: { label: string; min: number; max: number }[];
    };
    expect(vocabulary.BANDS.map((band) => [band.label, band.min, band.max])).toEqual(
      TRUST_BANDS.map((band) => [band.label, band.min, band.max]),
    );
    expect(script).not.toMatch(/High Trust|NO_SOURCE/);
  });

  it('explain every flag the committed dataset raises', async () => {
    const records = JSON.parse(await readFile(DATA, 'utf8')) as { flags: string[] }[];
    const flags = new Set(records.flatMap((record) => record.flags));
    expect(flags.size).toBeGreaterThan(0);
    const vocabulary = (await import(path.join(PUBLIC, 'vocabulary.js'))) as { FLAGS: { name: string }[] };
    const explained = new Set(vocabulary.FLAGS.map((flag) => flag.name));
    for (const flag of flags) expect(explained, `no meaning for ${flag} in the vocabulary`).toContain(flag);
  });

  it('state the daily limits of the plan table', () => {
    const limit = (n: number) => n.toLocaleString('en-US');
    expect(html).toMatch(new RegExp(`<strong>${limit(PLANS.free.dailyLimit)}</strong> requests a day`));
    expect(html).toMatch(new RegExp(`<strong>${limit(PLANS.pro.dailyLimit)}</strong> requests a day`));
    expect(html).toContain('coming soon');
  });

  it('load nothing from another origin, and forbid it with a Content-Security-Policy', () => {
    const loaded = [...html.matchAll(/<(?:script|link|img|iframe|source)\b[^>]*?\b(src|href)="([^"]*)"/g)];
    expect(loaded.map((match) => match[2])).toEqual(expect.arrayContaining(['style.css', 'app.js']));
    for (const [, attribute, url] of loaded) {
      expect(url, `${attribute}="${url}"`).toMatch(/^(?!\/\/)(?![a-z][a-z0-9+.-]*:)|^data:/i);
    }
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(/\bfetch\(\s*['"`]https?:/.test(script)).toBe(false);
  });

  it('never turns text into markup', () => {
    const code = script.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, ''); // the comments may name what is avoided
    expect(code).toContain('textContent');
    for (const sink of [
      'innerHTML',
      'outerHTML',
      'insertAdjacentHTML',
      'document.write',
      'DOMParser',
      'createContextualFragment',
    ]) {
      expect(code.includes(sink), sink).toBe(false);
    }
  });

  it('keep the API key out of URLs: it travels in the X-API-Key header only', () => {
    expect(script).toContain("'X-API-Key': state.key");
    expect(script).not.toMatch(/[?&](api_?key|key)=/i);
  });
});
