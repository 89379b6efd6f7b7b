/** /v1/stats also reports target_summary (a documented extra), so the values of the target filter can be learnt. */
import { describe, expect, it } from 'vitest';
import { harness, RECORDS } from './gateway/harness.js';

describe('target_summary', () => {
  it('counts the servers of each platform target, most common first, every target of the data listed', async () => {
    const h = await harness();
    const { data } = (await (await h.call('/v1/stats')).json()) as { data: { target_summary: Record<string, number> } };
    const expected = new Map<string, number>();
    for (const record of RECORDS)
      for (const target of record.targets) expected.set(target, (expected.get(target) ?? 0) + 1);
    expect(data.target_summary).toEqual(Object.fromEntries(expected));
    const counts = Object.values(data.target_summary);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });
});
