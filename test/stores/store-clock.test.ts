/**
 * The bound on Redis's clock that the counting scripts' deadlines are made from (`src/stores/store-clock.ts`):
 * never above what the replies show, tightened by every reply, raised at once by a clock stepping forward,
 * and an old bound forgotten within two windows.
 */
import { describe, expect, it } from 'vitest';
import { createStoreClock, SAFETY_MS } from '../../src/stores/store-clock.js';

const T = Date.UTC(2026, 10, 27, 12);

describe('the store clock', () => {
  it('knows nothing before a reply', () => {
    expect(createStoreClock().known).toBe(false);
  });

  it('shifts the deadline by the highest lower bound of the offset, less the safety margin', () => {
    const clock = createStoreClock();
    // Redis is 5 s ahead; replies took 40 ms and 2 ms to come back.
    clock.observe(T + 5000, T + 40);
    expect(clock.known).toBe(true);
    expect(clock.redisDeadline(T + 1000)).toBe(T + 1000 + 4960 - SAFETY_MS);
    clock.observe(T + 100 + 5000, T + 102);
    expect(clock.redisDeadline(T + 1000)).toBe(T + 1000 + 4998 - SAFETY_MS);
    // A slow reply does not loosen what a fast one showed.
    clock.observe(T + 200 + 5000, T + 900);
    expect(clock.redisDeadline(T + 1000)).toBe(T + 1000 + 4998 - SAFETY_MS);
  });

  it('never puts the deadline past the true one while the clocks keep time', () => {
    const clock = createStoreClock();
    const offset = -3217; // Redis behind
    for (let i = 0; i < 50; i++) {
      const sent = T + i * 1000;
      const redisRead = sent + ((i * 7) % 13);
      const received = redisRead + ((i * 11) % 17);
      clock.observe(redisRead + offset, received);
      expect(clock.redisDeadline(sent + 1000)).toBeLessThanOrEqual(sent + 1000 + offset - SAFETY_MS);
    }
  });

  it("takes a forward step of Redis's clock at the next reply", () => {
    const clock = createStoreClock();
    clock.observe(T, T);
    clock.observe(T + 10 + 60_000, T + 10);
    expect(clock.redisDeadline(T + 1000)).toBe(T + 1000 + 60_000 - SAFETY_MS);
  });

  it('forgets a bound from a clock that stepped back within two windows', () => {
    const clock = createStoreClock();
    clock.observe(T + 60_000, T); // Redis a minute ahead, then set right
    clock.observe(T + 30_000, T + 30_000);
    expect(clock.redisDeadline(T + 31_000)).toBe(T + 31_000 + 60_000 - SAFETY_MS);
    clock.observe(T + 61_000, T + 61_000); // a new window: the old bound is kept for one more
    expect(clock.redisDeadline(T + 62_000)).toBe(T + 62_000 + 60_000 - SAFETY_MS);
    clock.observe(T + 122_000, T + 122_000); // and then dropped
    expect(clock.redisDeadline(T + 123_000)).toBe(T + 123_000 - SAFETY_MS);
  });

  it("starts afresh when this process's clock steps back", () => {
    const clock = createStoreClock();
    clock.observe(T + 500, T);
    clock.observe(T - 10_000 + 20, T - 10_000);
    expect(clock.redisDeadline(T - 9000)).toBe(T - 9000 + 20 - SAFETY_MS);
  });

  it('ignores a reply without a usable time', () => {
    const clock = createStoreClock();
    clock.observe(Number.NaN, T);
    expect(clock.known).toBe(false);
  });
});
