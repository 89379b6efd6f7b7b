/**
 * Bodies made of records go out through Node's HTTP layer as their stored UTF-8 bytes (a buffer lent by the
 * gateway, or a binary string written as latin1): over a real socket, a record with characters of one to
 * four bytes arrives exactly as the engine holds it, with a Content-Length that is its byte count, whether
 * the answer was computed, made again from the cached ids, or taken from the cached bytes; HEAD gets the same
 * length and no body. A lent buffer goes back only once its response has finished, so pages written at
 * once never share one.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/bench/synthetic.js';
import { createNodeHandler, sendGatewayResponse } from '../../src/http/node-adapter.js';
import { loadSnapshot } from '../../src/query/open.js';
import type { QueryEngine } from '../../src/query/types.js';
import { harness } from '../gateway/harness.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

const DESCRIPTION = 'Prévisions météo — 日本の天気 😀, "quoted" \\ and a tab\t';
const NAME = 'io.github.météo/prévisions';

let server: http.Server;
let base: string;
let key: string;
let engine: QueryEngine;

beforeAll(async () => {
  engine = await loadSnapshot(
    await buildTestSnapshot([
      makeRecord({ name: NAME, description: DESCRIPTION }),
      makeRecord({ name: 'io.github.acme/plain' }),
    ]),
  );
  const h = await harness({ engine });
  key = h.key;
  server = http.createServer(createNodeHandler(h.gateway));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function get(path: string, method = 'GET') {
  const response = await fetch(`${base}${path}`, { method, headers: { 'x-api-key': key } });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { response, bytes };
}

describe('record bodies over HTTP', () => {
  it('arrive as the stored bytes, their length exact, computed, from cached ids and from cached bytes', async () => {
    const record = JSON.parse(engine.getJson(NAME) ?? '') as unknown;
    for (const path of [
      `/v1/servers/${encodeURIComponent('io.github.météo')}/${encodeURIComponent('prévisions')}`,
      '/v1/servers?sort=name',
      '/v1/search?q=previsions',
    ]) {
      const texts: string[] = [];
      for (let i = 0; i < 3; i++) {
        const { response, bytes } = await get(path);
        expect(response.status, path).toBe(200);
        expect(response.headers.get('content-length'), path).toBe(String(bytes.length));
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        texts.push(bytes.toString('utf8'));
      }
      expect(texts[1]).toBe(texts[0]!.replace('"cached":false', '"cached":true'));
      expect(texts[2]).toBe(texts[1]);
      const data = (JSON.parse(texts[0]!) as { data: unknown }).data;
      expect(Array.isArray(data) ? data : [data]).toContainEqual(record);
    }
  });

  it('answers HEAD with the length of the body it does not send', async () => {
    const path = '/v1/servers?sort=name&limit=1';
    await get(path);
    const { bytes } = await get(path); // from the cache, as the HEAD after it (`"cached":true`)
    const head = await get(path, 'HEAD');
    expect(head.response.status).toBe(200);
    expect(head.response.headers.get('content-length')).toBe(String(bytes.length));
    expect(head.bytes.length).toBe(0);
  });
});

describe('lent buffers', () => {
  it('go back once the response has finished, not before', async () => {
    const released: boolean[] = [];
    const body = Buffer.from('{"data":[]}');
    const lending = http.createServer((_request, response) => {
      let finished = false;
      response.once('finish', () => (finished = true));
      sendGatewayResponse(response, {
        status: 200,
        headers: { 'content-length': String(body.length) },
        body,
        release: () => released.push(finished),
      });
    });
    await new Promise<void>((resolve) => lending.listen(0, '127.0.0.1', resolve));
    const { port } = lending.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    expect(await answer.text()).toBe('{"data":[]}');
    await new Promise((resolve) => lending.close(resolve));
    expect(released).toEqual([true]);
  });

  it('are never shared by pages written at once: each arrives as the engine makes it', async () => {
    const records = generateRecords(300, 5);
    const many = await loadSnapshot(await buildTestSnapshot(records));
    const h = await harness({ engine: many, config: { freeDailyLimit: 1000 } });
    const pages = http.createServer(createNodeHandler(h.gateway));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const { port } = pages.address() as AddressInfo;
    const queries = Array.from({ length: 120 }, (_, i) => ({
      limit: 1 + (i % 17),
      offset: (i * 7) % 280,
      sort: i % 2 === 0 ? 'name' : 'trust_score',
    }));
    const bodies = await Promise.all(
      queries.map(async ({ limit, offset, sort }) => {
        const url = `http://127.0.0.1:${port}/v1/servers?limit=${limit}&offset=${offset}&sort=${sort}`;
        const answer = await fetch(url, { headers: { 'x-api-key': h.key } });
        return (await answer.json()) as { data: unknown[] };
      }),
    );
    await new Promise((resolve) => pages.close(resolve));
    queries.forEach(({ limit, offset, sort }, i) => {
      const expected = many.listJson({ limit, offset, sort: sort as 'name', order: 'desc' });
      expect(bodies[i]!.data).toEqual(JSON.parse(expected.json));
    });
    many.close();
  });

  it('are not lent again until given back', async () => {
    const h = await harness({ engine });
    const request = { method: 'GET', headers: { get: (name: string) => (name === 'x-api-key' ? h.key : null) } };
    const first = await h.gateway.handle({ ...request, url: '/v1/servers?sort=name' });
    const second = await h.gateway.handle({ ...request, url: '/v1/servers?sort=trust_score' });
    const bytesOf = (reply: typeof first) => reply.body as Buffer;
    expect(bytesOf(second).buffer).not.toBe(bytesOf(first).buffer);
    const text = bytesOf(first).toString('utf8');
    first.release?.();
    const third = await h.gateway.handle({ ...request, url: '/v1/servers?sort=popularity' });
    expect(bytesOf(third).buffer).toBe(bytesOf(first).buffer); // reused once given back
    expect(bytesOf(second).toString('utf8')).toContain('"cached":false');
    expect(text).toContain('"data":[');
  });

  it('go back at once for HEAD, which writes no body', async () => {
    const h = await harness({ engine });
    const reply = await h.gateway.handle({
      method: 'HEAD',
      url: '/v1/servers?sort=name',
      headers: { get: (name) => (name === 'x-api-key' ? h.key : null) },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toBeNull();
    expect(reply.release).toBeUndefined();
  });
});

/**
 * The answers that come back on one connection for `requests` written at once, parsed by their
 * Content-Length, within `ms`: what a keep-alive client gets when its next request reaches Node before the
 * answer before it has finished (pipelined, or a quick client on a busy host).
 */
async function answersOnOneConnection(requests: string[], ms = 3000): Promise<{ status: number; body: string }[]> {
  const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
  let received = Buffer.alloc(0);
  const answers: { status: number; body: string }[] = [];
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) break;
        const head = received.subarray(0, end).toString('latin1');
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (received.length < end + 4 + length) break;
        answers.push({
          status: Number(head.split(' ')[1]),
          body: received.subarray(end + 4, end + 4 + length).toString('utf8'),
        });
        received = received.subarray(end + 4 + length);
      }
      if (answers.length === requests.length) {
        clearTimeout(timer);
        resolve();
      }
    });
    socket.write(requests.join(''));
  });
  socket.destroy();
  return answers;
}

describe('requests on one connection', () => {
  it('are each answered, in order, when the next arrives before the answer before it has finished', async () => {
    const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${key}\r\n\r\n`;
    const answers = await answersOnOneConnection([
      request('/v1/servers?sort=name'),
      request('/v1/health'),
      request('/v1/search?q=previsions'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(JSON.parse(answers[0]!.body).data).toHaveLength(2);
    expect(JSON.parse(answers[1]!.body).data.status).toBe('ok');
    expect(JSON.parse(answers[2]!.body).data[0].name).toBe(NAME);
  });
});
