/** The one reading of `Retry-After` (src/model/retry-after.ts). */
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/model/retry-after.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');

  it('reads delay-seconds and HTTP dates', () => {
    expect(retryAfterMs(' 7 ', now)).toBe(7000);
    expect(retryAfterMs('Sat, 28 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('is undefined for what is not a wait', () => {
    for (const value of [null, undefined, '', 'soon', '-5', '1.5', '9999999999']) {
      expect(retryAfterMs(value, now), String(value)).toBeUndefined();
    }
  });
});
