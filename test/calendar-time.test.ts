/**
 * `isCalendarTime` (the timestamp check of every record) accepts exactly the texts of the ISO UTC form that
 * `Date` reads and writes back unchanged, which is what the check was before it became arithmetic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ISO_UTC_PATTERN, isCalendarTime, isoUtc } from '../src/model/schema.js';

const byDate = (text: string) => {
  const time = Date.parse(text);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 19) === text.slice(0, 19);
};

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
const timestamp = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), two(13), two(32), two(25), two(61), two(61), fc.boolean())
  .map(
    ([year, month, day, hour, minute, second, fraction]) =>
      `${String(year).padStart(4, '0')}-${month}-${day}T${hour}:${minute}:${second}${fraction ? '.123456' : ''}Z`,
  );

describe('calendar time', () => {
  it('agrees with Date on every text of the form', () => {
    fc.assert(
      fc.property(timestamp, (text) => {
        expect(ISO_UTC_PATTERN.test(text)).toBe(true);
        expect(isCalendarTime(text), text).toBe(byDate(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('knows leap years, month ends and the last second of a day', () => {
    const cases: [string, boolean][] = [
      ['2024-02-29T00:00:00Z', true],
      ['2023-02-29T00:00:00Z', false],
      ['1900-02-29T00:00:00Z', false],
      ['2000-02-29T00:00:00Z', true],
      ['2026-04-31T00:00:00Z', false],
      ['2026-12-31T23:59:59.999Z', true],
      ['2026-12-31T24:00:00Z', false],
      ['2026-06-30T23:59:60Z', false],
      ['2026-00-10T00:00:00Z', false],
      ['2026-01-00T00:00:00Z', false],
    ];
    for (const [text, valid] of cases) {
      expect(isCalendarTime(text), text).toBe(valid);
      expect(byDate(text), text).toBe(valid);
      expect(isoUtc().safeParse(text).success, text).toBe(valid);
    }
  });
});
