/**
 * `bounded`, the bound on every store call: calls under the same bound share one timer, so these check that
 * each call still fails at its own deadline (not an earlier call's, not later), that a call that settles
 * is answered with its own result whatever the others do, and that nothing keeps the process alive once
 * every call has settled.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bounded } from '../../src/stores/deadline.js';
import { StoreUnavailableError } from '../../src/stores/types.js';

const never = () => new Promise<never>(() => {});
const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When `promise` settles, in ms after `start`, and how. */
async function settlement(promise: Promise<unknown>, start: number) {
  try {
    return { at: performance.now() - start, value: await promise };
  } catch (error) {
    return { at: performance.now() - start, error };
  }
}

describe('bounded', () => {
  it('fails each call that never settles at its own deadline, and answers the others with their own result', async () => {
    const start = performance.now();
    const first = settlement(bounded(never, 200), start);
    await sleep(150);
    const second = settlement(bounded(never, 200, 'redis: '), start);
    const quick = settlement(
      bounded(() => after(20, 'quick'), 200),
      start,
    );
    const slow = settlement(
      bounded(() => after(100, 'slow'), 200),
      start,
    );
    const refused = settlement(
      bounded(() => Promise.reject(new Error('ECONNREFUSED')), 200),
      start,
    );
    const thrown = settlement(
      bounded(() => {
        throw new Error('synchronous');
      }, 200),
      start,
    );
    const [a, b, q, s, r, t] = await Promise.all([first, second, quick, slow, refused, thrown]);
    expect(a.error).toBeInstanceOf(StoreUnavailableError);
    expect((a.error as Error).message).toBe('the store did not answer within 200 ms');
    expect(a.at).toBeGreaterThanOrEqual(199);
    expect(a.at).toBeLessThan(340); // not the second call's deadline, 150 ms later (a busy host may be late)
    expect((b.error as Error).message).toBe('redis: the store did not answer within 200 ms');
    expect(b.at).toBeGreaterThanOrEqual(349);
    expect(q.value).toBe('quick');
    expect(s.value).toBe('slow');
    expect((r.error as Error).message).toBe('ECONNREFUSED');
    expect((t.error as Error).message).toBe('synchronous');
  });

  it('runs onTimeout once at the deadline, and ignores a settlement that comes after it', async () => {
    const timeouts: Error[] = [];
    const late = bounded(
      () => after(120, 'late'),
      60,
      'upstash: ',
      (error) => timeouts.push(error),
    );
    await expect(late).rejects.toThrow('upstash: the store did not answer within 60 ms');
    await sleep(100);
    expect(timeouts).toHaveLength(1);
  });

  it('fails calls at their deadlines through a long run of calls that settle, with others pending among them', async () => {
    const start = performance.now();
    const stuck: Promise<{ at: number; error?: unknown }>[] = [];
    for (let i = 0; i < 3000; i++) {
      const result = await bounded(() => Promise.resolve(i), 100);
      expect(result).toBe(i);
      if (i % 1000 === 0) stuck.push(settlement(bounded(never, 100), start));
    }
    for (const outcome of await Promise.all(stuck)) expect(outcome.error).toBeInstanceOf(StoreUnavailableError);
  });

  it('does not keep the process alive once every call has settled', () => {
    const script = `
      import { bounded } from ${JSON.stringify(path.resolve('src/stores/deadline.ts'))};
      const started = performance.now();
      await bounded(() => Promise.resolve(1), 10_000);
      process.on('exit', () => console.log(Math.round(performance.now() - started)));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 8000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(Number(run.stdout.trim())).toBeLessThan(2000);
  });
});
