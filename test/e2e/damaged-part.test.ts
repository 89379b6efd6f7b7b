/**
 * A part of the snapshot checked in the background that turns out damaged (issue 32, point 9): the server
 * stops accepting connections, answers the requests under way, and only then exits 1 with the one line
 * naming the file. A request that was still arriving when the check failed gets its answer, not a reset.
 */
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/bench/synthetic.js';
import { ARTIFACT_FILES } from '../../src/format/manifest.js';
import { buildTestSnapshot } from '../support/records.js';
import { startServer } from './process.js';

const RECORDS = generateRecords(3_000, 11);
const KEY = 'damaged-part-test-key';

/** Whether a new connection to `port` is refused (the server has stopped accepting). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('a damaged search.bin found while serving', { timeout: 120_000 }, () => {
  it('answers the request under way, then exits 1 with one line naming the file', async () => {
    const dir = await buildTestSnapshot(RECORDS);
    const file = path.join(dir, ARTIFACT_FILES.search);
    const bytes = await readFile(file);
    bytes[bytes.length - 3]! ^= 0x01;
    await writeFile(file, bytes);
    const server = await startServer({ SNAPSHOT_DIR: dir, API_KEYS: KEY });
    const port = Number(new URL(server.base).port);
    const exited = new Promise<number | null>((resolve) =>
      server.child.exitCode !== null ? resolve(server.child.exitCode) : server.child.once('exit', resolve),
    );

    // A request under way: its headers are in, its body is not, when the background check fails.
    const body = '{"label":"in flight"}';
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let reset = false;
    socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => (reset = true));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /v1/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await expect.poll(() => refused(port), { timeout: 30_000, interval: 50 }).toBe(true);
    expect(server.child.exitCode).toBeNull(); // stopped accepting, still answering
    socket.write(body.slice(5));
    await expect.poll(() => answer, { timeout: 10_000 }).toMatch(/\r\n\r\n/);
    socket.end();
    await closed;
    expect(reset).toBe(false);
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);

    expect(await exited).toBe(1);
    const lines = server.stderr().trim().split('\n');
    expect(lines.at(-1)).toMatch(/^\S*search\.bin: content does not match the manifest's hash \(altered\)$/);
  });
});
