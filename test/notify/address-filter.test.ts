import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { LookupFunction } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  checkReceiverAddress,
  checkReceiverUrl,
  type Lookup,
  receiverAgents,
  refusedRule,
} from '../../src/notify/address-filter.js';
import { postEvent } from '../../src/notify/post.js';
import { type Receiver, startReceiver } from './receiver.js';

/** A DNS stand-in: every name resolves to `address` (the way an attacker's DNS would answer). */
const resolvesTo =
  (address: string): Lookup =>
  (_host, _options, callback) =>
    callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);

/** The same, in the shape node's sockets call (`all` or a single address). */
const socketLookupTo =
  (address: string): LookupFunction =>
  (_host, options, callback) => {
    const family = address.includes(':') ? 6 : 4;
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: LookupAddress[]) => void)(null, [{ address, family }]);
    else (callback as (e: null, a: string, f: number) => void)(null, address, family);
  };

describe('the address rules', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private network'],
    ['172.16.0.9', 'private network'],
    ['192.168.1.1', 'private network'],
    ['169.254.10.20', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local (fc00::/7)'],
    ['fd12:3456::1', 'unique-local (fc00::/7)'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['169.254.169.254', 'cloud metadata service'],
    ['fd00:ec2::254', 'cloud metadata service'],
    ['0.0.0.0', 'unspecified address'],
    ['::ffff:10.0.0.1', 'private network'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['100.64.0.1', 'carrier-grade NAT (shared address space)'],
  ])('refuses %s as %s', (address, rule) => {
    expect(refusedRule(address)).toBe(rule);
  });

  it.each([
    ['::7f00:1', 'IPv4-compatible IPv6 (::/96, embeds an IPv4 address)'],
    ['::127.0.0.1', 'loopback'],
    ['::a9fe:a9fe', 'IPv4-compatible IPv6 (::/96, embeds an IPv4 address)'],
    ['::808:808', 'IPv4-compatible IPv6 (::/96, embeds an IPv4 address)'],
    ['64:ff9b:1::a00:1', 'special-purpose range (rfc6052)'],
    ['2a00:1450:1:2:0:5efe:a00:1', 'ISATAP (embeds an IPv4 address)'],
    ['2606:4700:1::200:5efe:7f00:1', 'ISATAP (embeds an IPv4 address)'],
  ])('refuses the embedded-IPv4 form %s (L1)', (address, rule) => {
    expect(refusedRule(address)).toBe(rule);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])('allows the public address %s', (address) => {
    expect(refusedRule(address)).toBeUndefined();
  });

  it('allows https only, http only when asked, and no user info, fragment or overlong url', () => {
    expect(checkReceiverUrl('https://hooks.example.com/in?token=x', { allowHttp: false }).host).toBe(
      'hooks.example.com',
    );
    expect(() => checkReceiverUrl('http://hooks.example.com/', { allowHttp: false })).toThrow(
      /must start with https:\/\//,
    );
    expect(checkReceiverUrl('http://hooks.example.com/', { allowHttp: true }).protocol).toBe('http:');
    expect(() => checkReceiverUrl('ftp://hooks.example.com/', { allowHttp: true })).toThrow(/https:\/\/ or http:\/\//);
    expect(() => checkReceiverUrl('https://user:pw@hooks.example.com/', { allowHttp: false })).toThrow(/user info/);
    expect(() => checkReceiverUrl('https://hooks.example.com/#x', { allowHttp: false })).toThrow(/fragment/);
    const long = `https://hooks.example.com/${'a'.repeat(2000)}`;
    expect(() => checkReceiverUrl(long, { allowHttp: false })).toThrow(/at most 2000 characters/);
    expect(() => checkReceiverUrl('not a url', { allowHttp: false })).toThrow(/absolute https/);
  });

  it('refuses a literal private address, naming the rule', async () => {
    await expect(checkReceiverAddress(new URL('https://10.0.0.5/hook'), false)).rejects.toThrow(
      /private network address; receivers must be on the public internet/,
    );
    await expect(checkReceiverAddress(new URL('https://[::1]/hook'), false)).rejects.toThrow(/loopback/);
    await expect(checkReceiverAddress(new URL('https://169.254.169.254/latest'), false)).rejects.toThrow(
      /cloud metadata service/,
    );
  });

  it('refuses IPv4-compatible IPv6 literals at subscription (L1)', async () => {
    for (const literal of ['[::127.0.0.1]', '[::169.254.169.254]', '[::7f00:1]', '[64:ff9b:1::a9fe:a9fe]']) {
      await expect(checkReceiverAddress(new URL(`https://${literal}/hook`), false), literal).rejects.toThrow(
        /embeds an IPv4 address|loopback|cloud metadata|special-purpose/,
      );
    }
    await expect(
      checkReceiverAddress(new URL('https://hooks.example.com/'), false, resolvesTo('::a9fe:a9fe')),
    ).rejects.toThrow(/not allowed/);
  });

  it('refuses a name the system resolves to loopback (localhost) without saying what it resolves to (L4)', async () => {
    const refusal = await checkReceiverAddress(new URL('https://localhost/hook'), false).catch((error: Error) => error);
    expect(refusal).toBeInstanceOf(Error);
    expect((refusal as Error).message).toMatch(/host is not allowed/);
    expect((refusal as Error).message).not.toMatch(/127\.0\.0\.1|::1|loopback|resolves to/);
  });

  it('refuses a name that resolves to a private address and one that does not resolve with the same sentence (L4)', async () => {
    const url = new URL('https://hooks.example.com/hook');
    const messageOf = (lookup: Lookup) =>
      checkReceiverAddress(url, false, lookup).then(
        () => 'allowed',
        (error: Error) => error.message,
      );
    const unresolved: Lookup = (_host, _options, callback) =>
      callback(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), []);
    const privateAnswer = await messageOf(resolvesTo('10.20.30.40'));
    expect(privateAnswer).toMatch(/not allowed/);
    expect(privateAnswer).not.toContain('10.20.30.40');
    expect(privateAnswer).not.toMatch(/private|resolves to/);
    expect(await messageOf(unresolved)).toBe(privateAnswer);
    expect(await messageOf(resolvesTo('fd00::5'))).toBe(privateAnswer);
    await expect(checkReceiverAddress(url, false, resolvesTo('93.184.215.14'))).resolves.toBeUndefined();
    await expect(checkReceiverAddress(url, true, resolvesTo('10.20.30.40'))).resolves.toBeUndefined();
  });
});

describe('a delivery', () => {
  let receiver: Receiver | undefined;
  let target: Receiver | undefined;
  const agents = receiverAgents(false);
  const open = receiverAgents(true);
  afterAll(() => {
    agents.destroy();
    open.destroy();
  });
  afterEach(async () => {
    await receiver?.close();
    await target?.close();
    receiver = target = undefined;
  });

  it('never connects to a loopback receiver, by address or by the name localhost', async () => {
    receiver = await startReceiver();
    const byAddress = await postEvent(new URL(receiver.url), '{}', {}, { agents });
    expect(byAddress.ok).toBe(false);
    expect(byAddress.error).toMatch(/not allowed/);
    const byName = await postEvent(new URL(`http://localhost:${receiver.port}/`), '{}', {}, { agents });
    expect(byName.ok).toBe(false);
    expect(byName.error).toMatch(/not allowed/);
    expect(receiver.received).toHaveLength(0);
  });

  it('checks the address the connection uses: a name whose lookup answers loopback is refused', async () => {
    receiver = await startReceiver();
    const url = new URL(`http://hooks.example.com:${receiver.port}/`);
    const refused = await postEvent(url, '{}', {}, { agents, lookup: socketLookupTo('127.0.0.1') });
    expect(refused.error).toMatch(/127\.0\.0\.1.*not allowed/);
    expect(receiver.received).toHaveLength(0);
    // The same lookup with the rules lifted reaches the receiver: the refusal above was the filter's.
    const allowed = await postEvent(url, '{}', {}, { agents: open, lookup: socketLookupTo('127.0.0.1') });
    expect(allowed.ok).toBe(true);
    expect(receiver.received).toHaveLength(1);
  });

  it('refuses at connection time a name whose lookup answers an IPv4-compatible IPv6 address (L1)', async () => {
    receiver = await startReceiver();
    const url = new URL(`http://hooks.example.com:${receiver.port}/`);
    for (const address of ['::7f00:1', '::a9fe:a9fe', '64:ff9b:1::7f00:1']) {
      const refused = await postEvent(url, '{}', {}, { agents, lookup: socketLookupTo(address) });
      expect(refused.ok, address).toBe(false);
      expect(refused.error, address).toMatch(/not allowed/);
    }
    const literal = await postEvent(new URL(`http://[::7f00:1]:${receiver.port}/`), '{}', {}, { agents });
    expect(literal.error).toMatch(/not allowed/);
    expect(receiver.received).toHaveLength(0);
  });

  it('follows no redirect, so a receiver cannot send a delivery on to another address', async () => {
    target = await startReceiver();
    receiver = await startReceiver({ status: 307, headers: { location: `${target.url}/latest/meta-data` } });
    const result = await postEvent(new URL(receiver.url), '{"a":1}', {}, { agents: open });
    expect(result).toMatchObject({ ok: false, status: 307, error: 'answered 307; redirects are not followed' });
    expect(receiver.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    // A server that accepts the request and never answers.
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const result = await postEvent(new URL(`http://127.0.0.1:${port}/`), '{}', {}, { agents: open, timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, error: 'no answer within 0.2 s' });
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
});
