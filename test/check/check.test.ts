/** POST /v1/check: the bulk policy verdict, at the gateway (Request → Response, memory store, fixed clock). */
import { beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../gateway/harness.js';

interface CheckBody {
  data: {
    policy: string;
    verdict: 'pass' | 'fail';
    results: {
      input: unknown;
      server: string | null;
      trust_score: number | null;
      trust_label: string | null;
      verdict: string;
      reasons: string[];
    }[];
  };
  meta: { cached: boolean };
}
interface ErrorBody {
  error: { code: string; message: string; status: number };
}

let h: Harness;
beforeEach(async () => {
  h = await harness({ config: { freeDailyLimit: 20 } });
});

function check(body: unknown, init: { key?: string | null; type?: string; raw?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': init.type ?? 'application/json' };
  const key = init.key === undefined ? h.key : init.key;
  if (key !== null) headers['x-api-key'] = key;
  return h.gateway(
    new Request('http://localhost/v1/check', { method: 'POST', headers, body: init.raw ?? JSON.stringify(body) }),
  );
}

describe('the policy verdict', () => {
  it('judges names, packages and URLs in the order given, with the server each resolved to', async () => {
    const response = await check({
      servers: [
        'io.github.acme/postgres-mcp',
        { package: 'pypi:slack-bot-mcp' },
        { url: 'https://EXAMPLE.com/mcp/' },
        { package: 'npm:nobody-published-this' },
      ],
      policy: { min_score: 60, unknown: 'warn' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { data } = (await response.json()) as CheckBody;
    expect(data.results.map((result) => [result.server, result.verdict])).toEqual([
      ['io.github.acme/postgres-mcp', 'pass'],
      ['io.github.acme/Slack-Bot', 'pass'],
      ['com.example/mcp', 'fail'],
      [null, 'warn'],
    ]);
    expect(data.results[2]?.reasons[0]).toBe("trust score 45 (Low Trust) is below the policy's minimum of 60");
    expect(data.results[3]).toMatchObject({ trust_score: null, trust_label: null });
    expect(data.results[3]?.reasons[0]).toMatch(/No scored server matches package npm:nobody-published-this/);
    expect(data.verdict).toBe('fail');
  });

  it('fails on a denied flag and on an unverified publisher when asked, saying which rule and what it found', async () => {
    const { data } = (await (
      await check({
        servers: ['io.github.acme/Slack-Bot'],
        policy: { deny_flags: ['NO_SOURCE'], require_verified_publisher: true },
      })
    ).json()) as CheckBody;
    expect(data.verdict).toBe('fail');
    expect(data.results[0]?.reasons).toEqual([
      expect.stringMatching(/^carries the flag NO_SOURCE \(.+\), which the policy denies$/),
      'its publisher namespace is not a verified publisher, which the policy requires',
    ]);
  });

  it('lets allow and deny override every other rule, and warns on unknown servers by default', async () => {
    const { data } = (await (
      await check({
        servers: ['org.sample/weather', 'io.github.acme/postgres-mcp', 'io.github.nobody/nothing'],
        policy: { min_score: 90, allow: ['ORG.SAMPLE/weather'], deny: ['io.github.acme/postgres-mcp'] },
      })
    ).json()) as CheckBody;
    expect(data.results.map((result) => result.verdict)).toEqual(['pass', 'fail', 'warn']);
    expect(data.results[0]?.reasons).toEqual(["org.sample/weather is on the policy's allow list"]);
    expect(data.results[1]?.reasons).toEqual(["io.github.acme/postgres-mcp is on the policy's deny list"]);
  });

  it('passes when nothing fails, and names the other servers a shared package belongs to', async () => {
    const { data } = (await (await check({ servers: [{ package: 'npm:@acme/postgres-mcp' }] })).json()) as CheckBody;
    expect(data.verdict).toBe('pass');
    expect(data.results[0]?.server).toBe('io.github.acme/postgres-mcp');
    expect(data.results[0]?.reasons[0]).toMatch(/also belongs to dev\.tools\/github-helper/);
  });
});

describe('counting', () => {
  it('counts each item as one request', async () => {
    const response = await check({ servers: ['a.b/c', 'a.b/d', 'a.b/e'] });
    expect(response.headers.get('x-ratelimit-remaining')).toBe('17');
  });

  it('answers 429 and counts nothing when the call has more items than the key has left', async () => {
    await check({ servers: Array.from({ length: 15 }, (_, i) => `a.b/s${i}`) });
    const refused = await check({ servers: Array.from({ length: 6 }, (_, i) => `a.b/t${i}`) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('5');
    expect(((await refused.json()) as ErrorBody).error.message).toMatch(
      /counts as 6 requests .* has 5 left today; nothing was counted/,
    );
    const fits = await check({ servers: Array.from({ length: 5 }, (_, i) => `a.b/u${i}`) });
    expect(fits.status).toBe(200);
    expect(fits.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});

describe('bad requests', () => {
  it('needs a key, like every /v1 route', async () => {
    expect((await check({ servers: ['a.b/c'] }, { key: null })).status).toBe(401);
  });

  it.each([
    ['not application/json', { type: 'text/plain' }, /Content-Type must be application\/json/],
    ['not JSON', { raw: '{"servers": [' }, /not valid JSON/],
    ['empty', { raw: '' }, /it is empty/],
    ['over 64 KB', { raw: JSON.stringify({ servers: ['a.b/c'], pad: 'x'.repeat(70_000) }) }, /larger than 64 KB/],
  ])('answers 400 invalid_body to a body %s', async (_, init, message) => {
    const response = await check(undefined, init);
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.code).toBe('invalid_body');
    expect(body.error.message).toMatch(message);
  });

  it.each([
    [{ servers: [] }, /servers: servers must hold at least one item/],
    [{ servers: Array.from({ length: 101 }, () => 'a.b/c') }, /at most 100 items/],
    [{ servers: ['no-slash'] }, /servers\.0: /],
    [{ servers: [{ package: 'gem:tool' }] }, /servers\.0.*registry_type one of npm/],
    [
      { servers: ['a.b/c'], policy: { min_score: 101 } },
      /policy\.min_score: policy\.min_score must be an integer from 0 to 100/,
    ],
    [{ servers: ['a.b/c'], policy: { unknown: 'maybe' } }, /policy\.unknown must be fail, warn or pass/],
    [{ servers: ['a.b/c'], extra: 1 }, /body: Unrecognized key/],
  ])('answers 400 naming the rule a body breaks: %j', async (body, message) => {
    const response = await check(body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error.message).toMatch(message);
  });

  it('answers GET with 405 and Allow, and a preflight that allows POST and Content-Type', async () => {
    const get = await h.call('/v1/check');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    const preflight = await h.call('/v1/check', { method: 'OPTIONS', key: null });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Content-Type');
  });
});

describe('the policy members of the body', () => {
  it('fails unknown servers with strict, and passes them by an allowed URL or an exception in force', async () => {
    const servers = [{ url: 'https://nobody.example/mcp' }, { package: 'npm:nobody-mcp' }];
    const strict = (await (await check({ servers, policy: { strict: true } })).json()) as CheckBody;
    expect(strict.data.results.map((result) => result.verdict)).toEqual(['fail', 'fail']);
    const lenient = (await (
      await check({
        servers,
        policy: {
          strict: true,
          allow: ['https://NOBODY.example/mcp/'],
          exceptions: [{ package: 'npm:nobody-mcp', reason: 'in-house', until: '2999-01-01' }],
        },
      })
    ).json()) as CheckBody;
    expect(lenient.data.verdict).toBe('pass');
    expect(lenient.data.results[1]?.reasons).toEqual(['excepted until 2999-01-01 by the policy: in-house']);
  });

  it('states the policy it applied in words first, the default one when the body sets none', async () => {
    const byDefault = (await (await check({ servers: ['a.b/c'] })).json()) as CheckBody;
    expect(Object.keys(byDefault.data)[0]).toBe('policy');
    expect(byDefault.data.policy).toMatch(
      /^fail below trust score 40 \(a score resting on too little measured evidence/,
    );
    expect(byDefault.data.policy).toContain(
      'KNOWN_MALICIOUS, REGISTRY_TAKEDOWN (always, allow lists and exceptions included)',
    );
    expect(byDefault.data.policy).toContain('warn on a server that matches no scored server');
    const policy = {
      strict: true,
      allow: ['pkg:npm/%40scope/x'],
      exceptions: [{ url: 'https://mcp.example/mcp', reason: 'vendor trial', until: '2999-01-01' }],
    };
    const stated = (await (await check({ servers: ['a.b/c'], policy })).json()) as CheckBody;
    expect(stated.data.policy).toContain('fail a server that matches no scored server');
    expect(stated.data.policy).toContain('always pass pkg:npm/%40scope/x');
    expect(stated.data.policy).toContain('except https://mcp.example/mcp until 2999-01-01 (vendor trial)');
  });

  it('refuses an exception without a reason, and strict with unknown pass, with 400', async () => {
    for (const policy of [
      { exceptions: [{ server: 'a.b/c', until: '2026-12-31' }] },
      { strict: true, unknown: 'pass' },
    ]) {
      const response = await check({ servers: ['a.b/c'], policy });
      expect(response.status).toBe(400);
      expect(((await response.json()) as ErrorBody).error.code).toBe('invalid_body');
    }
  });
});
