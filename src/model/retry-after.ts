/**
 * A `Retry-After` header (RFC 9110 §10.2.3) as milliseconds from now: delay-seconds or an HTTP date. The one
 * reading of it, for the pipeline's clients and the webhook sender; each caller bounds what it will wait.
 */

/** Milliseconds `value` asks to wait (never negative), or undefined when it is absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, nowMs = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  // More than nine digits is more than thirty years: unreadable, not a wait.
  if (/^[0-9]+$/.test(text)) return text.length <= 9 ? Number(text) * 1000 : undefined;
  // An HTTP date names its day and month in letters; anything else Date.parse might take ("-5") is no date.
  if (!/^[A-Za-z]{3}, /.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(date - nowMs, 0);
}
