/**
 * The static site (`public/`) without a browser: what the page states and what its script knows stays in
 * step with the schema, the plan table and the dataset, and the page loads nothing from another origin and
 * never parses data as HTML. The browser test (test/browser/site.test.ts) covers what the page does.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../src/keys/plans.js';
import { TRUST_BANDS } from '../src/model/schema.js';

const PUBLIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'public');
const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'servers.json');

let html = '';
let script = '';
beforeAll(async () => {
  html = await readFile(path.join(PUBLIC, 'index.html'), 'utf8');
  script = await readFile(path.join(PUBLIC, 'app.js'), 'utf8');
});

/** The value of `const NAME = <literal>;` in app.js, read as JSON (the literals are plain arrays). */
function constant(name: string): unknown {
  const match = new RegExp(`const ${name} = (\\[[^;]*\\]);`).exec(script);
  if (!match?.[1]) throw new Error(`app.js has no constant ${name}`);
  return JSON.parse(match[1].replaceAll("'", '"'));
}

describe('the page and its script', () => {
  it('know the trust bands of the schema, in order, with their score ranges', () => {
    expect(constant('BAND_RANGES')).toEqual(TRUST_BANDS.map((band) => [band.min, band.max]));
    expect((constant('BAND_KEYS') as string[]).length).toBe(TRUST_BANDS.length);
  });

  it('explain every flag the committed dataset raises', async () => {
    const records = JSON.parse(await readFile(DATA, 'utf8')) as { flags: string[] }[];
    const flags = new Set(records.flatMap((record) => record.flags));
    expect(flags.size).toBeGreaterThan(0);
    const block = /const FLAG_MEANINGS = \{([\s\S]*?)\n\};/.exec(script)?.[1] ?? '';
    const explained = new Set([...block.matchAll(/^\s+([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]));
    for (const flag of flags) expect(explained, `no meaning for ${flag} in public/app.js`).toContain(flag);
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
    for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'DOMParser', 'createContextualFragment']) {
      expect(code.includes(sink), sink).toBe(false);
    }
  });

  it('keep the API key out of URLs: it travels in the X-API-Key header only', () => {
    expect(script).toContain("'X-API-Key': state.key");
    expect(script).not.toMatch(/[?&](api_?key|key)=/i);
  });
});
