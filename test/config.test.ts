/** The environment as the service reads it (src/service/config.ts): defaults, validation, and keys hashed at once. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/service/config.js';
import { hashKey } from '../src/keys/keys.js';

describe('loadConfig', () => {
  it('has the defaults of the decisions', () => {
    expect(loadConfig({})).toEqual({
      host: '127.0.0.1',
      port: 3000,
      snapshotDir: undefined,
      apiKeyHashes: [],
      freeDailyLimit: 100,
      store: 'memory',
      redisUrl: undefined,
      upstashUrl: undefined,
      upstashToken: undefined,
      keysFile: path.resolve('.local/keys.json'),
      selfService: { enabled: true, perDay: 3, trustProxyHops: 0 },
      registryPolicy: { minScore: 0, denyFlags: [], requireVerified: false },
      staleAfterDays: 3,
      countUnknown: true,
      notify: {
        secretsKey: undefined,
        previousSecretsKeys: [],
        allowHttp: false,
        allowPrivate: false,
        publicUrl: undefined,
        intervalMs: 30_000,
        cronSecret: undefined,
      },
    });
  });

  it('reads the webhook settings, and refuses a secrets key that is not 32 bytes in one line that does not echo it', () => {
    const hex = 'ab'.repeat(32);
    const config = loadConfig({
      WEBHOOK_SECRETS_KEY: hex,
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOKS_PUBLIC_URL: 'https://trust.example/',
      WEBHOOKS_INTERVAL_SECONDS: '60',
    });
    expect(config.notify).toMatchObject({
      allowHttp: true,
      allowPrivate: true,
      publicUrl: 'https://trust.example',
      intervalMs: 60_000,
    });
    expect(config.notify.secretsKey).toEqual(Buffer.from(hex, 'hex'));
    expect(loadConfig({ WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') }).notify.secretsKey).toEqual(
      Buffer.alloc(32, 1),
    );
    const short = 'c2VjcmV0LWtleS10b28tc2hvcnQ=';
    expect(() => loadConfig({ WEBHOOK_SECRETS_KEY: short })).toThrow(
      /^Invalid configuration: WEBHOOK_SECRETS_KEY: WEBHOOK_SECRETS_KEY must be 32 bytes/,
    );
    try {
      loadConfig({ WEBHOOK_SECRETS_KEY: short, WEBHOOKS_ALLOW_PRIVATE: 'yes' });
    } catch (error) {
      expect((error as Error).message).not.toContain(short);
      expect((error as Error).message).toContain('WEBHOOKS_ALLOW_PRIVATE must be true or false');
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', STORE: '', API_KEYS: '' })).toMatchObject({
      port: 3000,
      store: 'memory',
      apiKeyHashes: [],
    });
  });

  it('hashes API_KEYS at once and keeps no plain key', () => {
    const config = loadConfig({ API_KEYS: ' alpha-key ,beta-key,,alpha-key' });
    expect(config.apiKeyHashes).toEqual([hashKey('alpha-key'), hashKey('beta-key')]);
    expect(JSON.stringify(config)).not.toContain('alpha-key');
  });

  it('reads FREE_DAILY_LIMIT, PORT 0 and a relative SNAPSHOT_DIR', () => {
    const config = loadConfig({ FREE_DAILY_LIMIT: '1000000', PORT: '0', SNAPSHOT_DIR: 'snap' });
    expect(config).toMatchObject({ freeDailyLimit: 1_000_000, port: 0, snapshotDir: path.resolve('snap') });
  });

  it('reads STALE_AFTER_DAYS, the days after which health calls the data stale', () => {
    expect(loadConfig({ STALE_AFTER_DAYS: '7' }).staleAfterDays).toBe(7);
    expect(loadConfig({ STALE_AFTER_DAYS: ' ' }).staleAfterDays).toBe(3);
  });

  it('reads UNKNOWN_IDENTIFIER_COUNTING, on or off, and refuses anything else in one line', () => {
    expect(loadConfig({ UNKNOWN_IDENTIFIER_COUNTING: 'off' }).countUnknown).toBe(false);
    expect(loadConfig({ UNKNOWN_IDENTIFIER_COUNTING: 'on' }).countUnknown).toBe(true);
    expect(() => loadConfig({ UNKNOWN_IDENTIFIER_COUNTING: 'no' })).toThrow(
      /^Invalid configuration: UNKNOWN_IDENTIFIER_COUNTING: UNKNOWN_IDENTIFIER_COUNTING must be on or off$/,
    );
  });

  for (const [name, value, message] of [
    ['PORT', '3e3', 'PORT must be a whole number from 0 to 65535'],
    ['PORT', '70000', 'PORT must be a whole number from 0 to 65535'],
    ['FREE_DAILY_LIMIT', '0', 'FREE_DAILY_LIMIT must be a whole number'],
    ['FREE_DAILY_LIMIT', '1.5', 'FREE_DAILY_LIMIT must be a whole number'],
    ['STORE', 'postgres', 'STORE must be one of: memory, redis, upstash'],
    ['STALE_AFTER_DAYS', '0', 'STALE_AFTER_DAYS must be a whole number from 1 to 3650'],
    ['STALE_AFTER_DAYS', '2.5', 'STALE_AFTER_DAYS must be a whole number from 1 to 3650'],
    ['STALE_AFTER_DAYS', 'three', 'STALE_AFTER_DAYS must be a whole number from 1 to 3650'],
    ['STALE_AFTER_DAYS', '3651', 'STALE_AFTER_DAYS must be a whole number from 1 to 3650'],
  ] as const) {
    it(`refuses ${name}=${value} with one line naming it`, () => {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        expect((error as Error).message).toContain(message);
        expect((error as Error).message).not.toContain('\n');
      }
    });
  }

  it('names every bad variable in the one line', () => {
    expect(() => loadConfig({ PORT: 'x', STORE: 'y' })).toThrow(/PORT.*; STORE/);
  });

  it('requires the URL of the store it is told to use, without echoing secrets', () => {
    expect(() => loadConfig({ STORE: 'redis' })).toThrow('STORE=redis needs REDIS_URL');
    expect(() => loadConfig({ STORE: 'upstash', UPSTASH_REDIS_REST_TOKEN: 'secret-token' })).toThrow(
      /needs UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN$/,
    );
  });
});
