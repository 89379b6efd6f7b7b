/**
 * The advice a model gets for each failure, for the statuses the end-to-end test cannot produce cheaply
 * (502 needs a dead counter store; a 404 for an unknown route needs a wrong base URL).
 */
import { describe, expect, it } from 'vitest';
import { adviceFor, suggestedQuery } from '../../src/mcp/advice.js';
import { TrustApiError } from '../../src/client/client.js';

const URL_TRIED = 'http://127.0.0.1:3000/v1/stats';

function httpError(status: number, code: string, message: string, extra: object = {}): TrustApiError {
  return new TrustApiError('http', message, { url: URL_TRIED, status, code, ...extra });
}

describe('advice for a failed call', () => {
  it('says the store is unreachable and to try later for a 502', () => {
    const text = adviceFor(httpError(502, 'store_unavailable', 'The upstream data store cannot be reached'));
    expect(text).toContain('data store');
    expect(text).toContain('unreachable');
    expect(text).toMatch(/try again in a minute/);
  });

  it('gives the reset time of a 429 from X-RateLimit-Reset and Retry-After', () => {
    const now = Date.parse('2026-03-01T22:00:00.000Z');
    const reset = Date.parse('2026-03-02T00:00:00.000Z') / 1000;
    const text = adviceFor(
      httpError(429, 'rate_limited', 'Daily rate limit of 100 requests exceeded', {
        retryAfterSeconds: 7200,
        resetEpochSeconds: reset,
      }),
      {},
      now,
    );
    expect(text).toContain('resets at 2026-03-02T00:00:00.000Z (in about 2 h 0 min)');
  });

  it('passes the API’s own message on for a 400', () => {
    const text = adviceFor(
      httpError(400, 'invalid_parameter', 'Invalid query: limit must be an integer from 1 to 200'),
    );
    expect(text).toContain('limit must be an integer from 1 to 200');
    expect(text).toContain('Fix the arguments');
  });

  it('blames the base URL, not the server name, for a 404 on an unknown route', () => {
    const text = adviceFor(httpError(404, 'route_not_found', 'No such route'), { serverName: 'a/b' });
    expect(text).toContain('TRUST_API_URL');
    expect(text).not.toContain('search_servers');
  });

  it('suggests searching for the id part of a name that was not found', () => {
    expect(suggestedQuery('io.github.someone/postgres-mcp')).toBe('postgres-mcp');
    expect(suggestedQuery('io.github.someone/x')).toBe('io.github.someone/x');
  });
});
