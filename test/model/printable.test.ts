/** The one terminal-escaping function, as every command reaches it (src/model/printable.ts). */
import { describe, expect, it } from 'vitest';
import { printable as pipelinePrintable } from '../../src/pipeline/errors.js';
import { printable, printableLines } from '../../src/model/printable.js';

describe('printable', () => {
  it('writes bidi controls, C1 controls and line separators as escapes in the pipeline too', () => {
    // The pipeline's own copy let bidi characters through; there is one copy now.
    expect(pipelinePrintable('repo\u202egnp.exe\u0085x\u2028y')).toBe('repo\\u202egnp.exe\\u0085x\\u2028y');
  });

  it('cuts the escaped text to its bound and marks the cut', () => {
    expect(printable('\u001b'.repeat(10), 12)).toBe('\\u001b\\u001b…');
    expect(printable('short', 12)).toBe('short');
  });

  it('keeps the lines of a multi-line text but escapes the rest and indents workflow commands', () => {
    expect(printableLines('a\tb\n\u202ec\n::error::x')).toBe('a\tb\n\\u202ec\n  ::error::x');
  });
});
