/**
 * The first-ask store (`src/gateway/first-asks.ts`): answers of records asked for once, kept as bytes in a
 * ring found through a set-associative table. It may forget (that is what bounds it), but never answers
 * with another key's answer, a written-over one or an expired one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FirstAskStore } from '../../src/gateway/first-asks.js';
import { fnv1a } from '../../src/format/fnv.js';

const answer = (ids: number | number[], metaTail = ',"total":3') => ({ etag: 'W/"abc-1"', ids, metaTail });

describe('FirstAskStore', () => {
  it('gives back what was kept, once, with when it was kept', () => {
    const store = new FirstAskStore({ ringBytes: 64 * 1024, entries: 100 });
    expect(store.put('page', answer([4, 2, 7]), 10)).toBe(true);
    expect(store.put('one', answer(9, ''), 11)).toBe(true);
    expect(store.size).toBe(2);
    expect(store.take('page', 0)).toEqual({ etag: 'W/"abc-1"', ids: [4, 2, 7], metaTail: ',"total":3', keptAtMs: 10 });
    expect(store.take('page', 0)).toBeUndefined();
    expect(store.take('one', 0)).toEqual({ etag: 'W/"abc-1"', ids: 9, metaTail: '', keptAtMs: 11 });
    expect(store.take('absent', 0)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('keeps an empty page, the largest ids and keys in any script', () => {
    const store = new FirstAskStore({ ringBytes: 64 * 1024, entries: 100 });
    const keys = ['search\n["météo",20,0,["name"]]', 'search\n["日本の天気 😀",1,0,["name"]]', 'plain'];
    store.put(keys[0]!, answer([]), 1);
    store.put(keys[1]!, answer([0, 0xffffffff, 1]), 1);
    // A binary string: the UTF-8 bytes of "é" as two characters.
    store.put(keys[2]!, { etag: 'W/"x"', ids: 3, metaTail: Buffer.from(',"é"').toString('latin1') }, 1);
    expect(store.take(keys[0]!, 0)?.ids).toEqual([]);
    expect(store.take(keys[1]!, 0)?.ids).toEqual([0, 0xffffffff, 1]);
    expect(Buffer.from(store.take(keys[2]!, 0)!.metaTail, 'latin1').toString('utf8')).toBe(',"é"');
  });

  it('refuses what it cannot keep: too large, or meta that is not one byte a character', () => {
    const store = new FirstAskStore({ ringBytes: 64 * 1024, entries: 100 });
    // An entry may take a sixty-fourth of the ring: 1,024 bytes.
    expect(store.put('big', answer(Array.from({ length: 300 }, (_, i) => i)), 0)).toBe(false);
    expect(store.put('k'.repeat(2000), answer(1), 0)).toBe(false);
    expect(store.put('wide', answer(1, ',"\u0100"'), 0)).toBe(false);
    expect(store.put('fits', answer(Array.from({ length: 200 }, (_, i) => i)), 0)).toBe(true);
    expect(store.size).toBe(1);
  });

  it('drops an answer kept at or before the time it is asked not to be older than', () => {
    const store = new FirstAskStore({ ringBytes: 64 * 1024, entries: 100 });
    store.put('a', answer(1), 100);
    expect(store.take('a', 100)).toBeUndefined();
    expect(store.take('a', 0)).toBeUndefined(); // dropped, not kept for a later ask
    store.put('b', answer(2), 100);
    expect(store.take('b', 99)?.ids).toBe(2);
  });

  it('replaces the answer kept under the same key', () => {
    const store = new FirstAskStore({ ringBytes: 64 * 1024, entries: 100 });
    store.put('a', answer(1), 0);
    store.put('a', answer(2), 5);
    expect(store.size).toBe(1);
    expect(store.take('a', 0)).toMatchObject({ ids: 2, keptAtMs: 5 });
    expect(store.take('a', 0)).toBeUndefined();
  });

  it('tells apart two keys of the same hash by their bytes', () => {
    const a = 'search\n["q72893",20,0,["name"]]';
    const b = 'search\n["q809440",20,0,["name"]]';
    expect(fnv1a(a)).toBe(fnv1a(b));
    const store = new FirstAskStore({ ringBytes: 64 * 1024, entries: 100 });
    store.put(a, answer(1), 5);
    expect(store.take(b, 0)).toBeUndefined();
    store.put(b, answer(2), 5);
    expect(store.take(a, 0)?.ids).toBe(1);
    expect(store.take(b, 0)?.ids).toBe(2);
  });

  it('tells apart a key from a longer one of the same hash that begins with it', () => {
    const a = 'search\n["slack",20,0,["name"]]';
    const b = `${a}IYf!Uz`;
    expect(fnv1a(a)).toBe(fnv1a(b));
    for (const [first, second] of [
      [a, b],
      [b, a],
    ] as const) {
      const store = new FirstAskStore({ ringBytes: 64 * 1024, entries: 100 });
      store.put(first, answer(1), 5);
      expect(store.take(second, 0)).toBeUndefined();
      expect(store.take(first, 0)?.ids).toBe(1);
    }
  });

  it('forgets what the ring has come round and written over, and never reads it', () => {
    const store = new FirstAskStore({ ringBytes: 4096, entries: 1000 });
    // Entries of 12 + 4 + 9 + 10 bytes, aligned to 36, and 4 for the id: 40 bytes; a lap of 4,096 holds 102.
    for (let i = 0; i < 200; i++)
      store.put(String.fromCharCode(65 + (i % 26)) + String(i).padStart(3, '0'), answer(i), 0);
    expect(store.size).toBeLessThanOrEqual(102);
    const kept = [];
    for (let i = 0; i < 200; i++) {
      const found = store.take(String.fromCharCode(65 + (i % 26)) + String(i).padStart(3, '0'), -1);
      if (found !== undefined) {
        expect(found.ids).toBe(i);
        kept.push(i);
      }
    }
    expect(kept[0]).toBeGreaterThanOrEqual(200 - 102);
    expect(kept.at(-1)).toBe(199);
    expect(kept.length).toBeGreaterThan(80);
  });

  it('holds at most its number of entries, a bucket giving up its oldest', () => {
    const store = new FirstAskStore({ ringBytes: 1024 * 1024, entries: 8 }); // one bucket of 8
    for (let i = 0; i < 20; i++) store.put(`k${i}`, answer(i), i);
    expect(store.size).toBe(8);
    for (let i = 0; i < 12; i++) expect(store.take(`k${i}`, -1)).toBeUndefined();
    for (let i = 12; i < 20; i++) expect(store.take(`k${i}`, -1)?.ids).toBe(i);
  });

  it('never answers with anything but the last answer kept under the key, whatever the operations', () => {
    type Operation =
      { kind: 'put'; key: number; ids: number[]; now: number } | { kind: 'take'; key: number; notBefore: number };
    const operation = fc.oneof(
      fc.record({
        kind: fc.constant('put' as const),
        key: fc.nat(40),
        ids: fc.array(fc.nat(), { maxLength: 12 }),
        now: fc.nat(100),
      }),
      fc.record({ kind: fc.constant('take' as const), key: fc.nat(40), notBefore: fc.integer({ min: -1, max: 100 }) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 300 }), fc.boolean(), (operations: Operation[], small) => {
        // Small: a ring and a table that forget; large: nothing is forgotten.
        const store = small
          ? new FirstAskStore({ ringBytes: 8192, entries: 8 })
          : new FirstAskStore({ ringBytes: 1024 * 1024, entries: 1000 });
        const model = new Map<string, { ids: number[]; now: number }>();
        for (const op of operations) {
          const key = `key-${op.key}-é`;
          if (op.kind === 'put') {
            expect(store.put(key, answer(op.ids, `,"n":${op.key}`), op.now)).toBe(true);
            model.set(key, { ids: op.ids, now: op.now });
            continue;
          }
          const expected = model.get(key);
          model.delete(key);
          const found = store.take(key, op.notBefore);
          const fresh = expected !== undefined && expected.now > op.notBefore;
          if (found !== undefined) {
            expect(fresh).toBe(true);
            expect(found).toEqual({
              etag: 'W/"abc-1"',
              ids: expected!.ids,
              metaTail: `,"n":${op.key}`,
              keptAtMs: expected!.now,
            });
          } else if (!small) expect(fresh).toBe(false);
        }
      }),
    );
  });
});
