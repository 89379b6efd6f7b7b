/**
 * Issue 16, as `npm start` runs: the server listens once Get Server can answer, loads the rest in the
 * background and says when it is done; a part that fails its check stops the server with one line that
 * names the file, and nothing of it is ever served.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/bench/synthetic.js';
import { ARTIFACT_FILES } from '../../src/format/manifest.js';
import { buildTestSnapshot } from '../support/records.js';
import { startServer } from './process.js';

const RECORDS = generateRecords(3_000, 11);
const KEY = 'background-load-test-key';

describe('npm start loading in the background', () => {
  it('answers lists and searches while loading, and reports when everything is loaded', async () => {
    const dir = await buildTestSnapshot(RECORDS);
    const server = await startServer({ SNAPSHOT_DIR: dir, API_KEYS: KEY });
    try {
      const headers = { 'X-API-Key': KEY };
      const [list, search] = await Promise.all([
        fetch(`${server.base}/v1/servers?sort=name&limit=3`, { headers }),
        fetch(`${server.base}/v1/search?q=github&limit=3`, { headers }),
      ]);
      expect(list.status).toBe(200);
      expect(((await list.json()) as { meta: { total: number } }).meta.total).toBe(RECORDS.length);
      expect(search.status).toBe(200);
      await expect
        .poll(() => server.stdout(), { timeout: 20_000 })
        .toMatch(
          /Snapshot fully loaded \d+ ms after process start \(the event loop was held at most [\d.]+ ms at a time; ready: (\w+ \d+ ms(, )?){5}\)/,
        );
    } finally {
      await server.stop();
    }
  });

  it('stops with one line naming a damaged part, which is never served', async () => {
    const dir = await buildTestSnapshot(RECORDS);
    const file = path.join(dir, ARTIFACT_FILES.postings);
    const bytes = await readFile(file);
    bytes[bytes.length - 3]! ^= 0x01;
    await writeFile(file, bytes);
    const server = await startServer({ SNAPSHOT_DIR: dir, API_KEYS: KEY });
    const list = await fetch(`${server.base}/v1/servers?flags=no_license`, { headers: { 'X-API-Key': KEY } }).catch(
      () => undefined,
    );
    // Either refused (500, never the damaged postings' answer) or the server had already stopped.
    if (list !== undefined) expect(list.status).toBe(500);
    const code = await new Promise<number | null>((resolve) =>
      server.child.exitCode !== null ? resolve(server.child.exitCode) : server.child.once('exit', resolve),
    );
    expect(code).toBe(1);
    // One line from the server as it stops; before it, the gateway's line for a request that needed the part.
    const lines = server.stderr().trim().split('\n');
    expect(lines.at(-1)).toMatch(/^\S*postings\.bin: content does not match the manifest's hash \(altered\)$/);
    for (const line of lines.slice(0, -1))
      expect(line).toMatch(/^gateway: answering 500, \S*postings\.bin: content does not match/);
  });
});
