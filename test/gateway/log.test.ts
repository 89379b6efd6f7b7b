/**
 * The request log line: written by hand, it must be exactly what `JSON.stringify` writes for any method,
 * path and key (quotes, backslashes, controls, lone surrogates, any character); and the buffered writer
 * loses no line and keeps their order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBufferedLineWriter, formatRequestLogLine, type RequestLogLine } from '../../src/gateway/log.js';

/** Strings of any UTF-16 code units (lone surrogates included), and the awkward ones often. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({
    unit: fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u2028', '\ud800', '\udc00', 'é', '😀', 'a'),
    maxLength: 12,
  }),
);

const line = fc.record<RequestLogLine>({
  time: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  method: anyText,
  path: anyText,
  status: fc.integer({ min: 100, max: 599 }),
  duration_ms: fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 10_000 })),
  cached: fc.boolean(),
  key: fc.option(anyText, { nil: null }),
});

describe('formatRequestLogLine', () => {
  it('writes what JSON.stringify writes, for any line', () => {
    fc.assert(
      fc.property(line, (entry) => {
        expect(formatRequestLogLine(entry)).toBe(JSON.stringify(entry));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('createBufferedLineWriter', () => {
  it('writes every line, in order, once the buffer is full, after the delay, and on flush', async () => {
    const written: string[] = [];
    const writer = createBufferedLineWriter((text) => written.push(text), { maxDelayMs: 20, maxBytes: 10 });
    writer.write('abcd');
    expect(written).toEqual([]); // 5 bytes gathered
    writer.write('efgh'); // 10: written at once
    expect(written).toEqual(['abcd\nefgh\n']);
    writer.write('late');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(written).toEqual(['abcd\nefgh\n', 'late\n']);
    writer.write('last');
    writer.flush();
    writer.flush(); // nothing left: nothing written
    expect(written).toEqual(['abcd\nefgh\n', 'late\n', 'last\n']);
  });
});
