/**
 * Smaller holes found by the outside attack (issue 32, point 8), each closed at the gateway: labels,
 * who may mint keys from a browser, request targets in absolute form, and registry website URLs.
 */
import { describe, expect, it } from 'vitest';
import { harness } from './harness.js';

function issue(h: Awaited<ReturnType<typeof harness>>, label: string) {
  return h.gateway(
    new Request('http://localhost/v1/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label }),
    }),
  );
}

describe('Get Access labels', () => {
  it('refuses a label with a C1 control or a bidirectional formatting character', async () => {
    const h = await harness();
    for (const label of ['laptop\u0085', 'x\u009b2J', 'gpj.\u202eexe', 'a\u2066b', 'rtl\u200f']) {
      const response = await issue(h, label);
      expect(response.status, JSON.stringify(label)).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('invalid_body');
      expect(error.message).toContain('label must not contain control characters or bidirectional');
    }
    expect((await issue(h, 'café, 東京')).status).toBe(201);
  });
});
