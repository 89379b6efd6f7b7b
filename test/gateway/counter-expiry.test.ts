/** Two details of counting and filtering settled after review. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { parseListParams } from '../../src/api/params.js';
import type { Store } from '../../src/stores/types.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import { harness, NEXT_MIDNIGHT, NOW } from './harness.js';

describe('daily counters', () => {
  it('ask the store to keep a counter an hour past the next UTC midnight, so a store clock running ahead loses no count', async () => {
    const expiries: number[] = [];
    const memory = createMemoryStore({ now: () => NOW });
    const store: Store = {
      ...memory,
      kind: memory.kind,
      increment: (key, expireAt) => (expiries.push(expireAt), memory.increment(key, expireAt)),
    };
    const { call, issue } = await harness({ store });
    const key = await issue();
    const response = await call('/v1/stats', { key });
    expect(response.status).toBe(200);
    expect(expiries).toEqual([NEXT_MIDNIGHT + 3_600_000]);
    // The headers still announce midnight itself.
    expect(response.headers.get('x-ratelimit-reset')).toBe(String(NEXT_MIDNIGHT / 1000));
  });
});

describe('the flags filter', () => {
  for (const text of [',', ' , ', 'NO_SOURCE,', ',NO_SOURCE', 'NO_SOURCE,,DEAD_ENTRY']) {
    it(`refuses flags=${JSON.stringify(text)}, which holds an empty flag name`, () => {
      expect(() => parseListParams(`flags=${encodeURIComponent(text)}`)).toThrow(ApiError);
      expect(() => parseListParams(`flags=${encodeURIComponent(text)}`)).toThrow(
        /flags must be one flag name or several separated by commas/,
      );
    });
  }

  it('accepts several flags with spaces around the commas', () => {
    expect(parseListParams('flags=NO_SOURCE%20,%20dead_entry').flags).toBe('NO_SOURCE , dead_entry');
  });
});
