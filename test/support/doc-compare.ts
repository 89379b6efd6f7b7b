/**
 * Compare what a document shows with a real answer: exactly, except the values that differ on every run,
 * which are compared by their form. Returns the differences, each with where it is (empty: they agree).
 */

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const SNAPSHOT_ID = /^[0-9a-f]{20}$/;

/** JSON members whose value changes on every run (or every build), and the form it must have. */
const VARYING_MEMBERS: Record<string, RegExp> = {
  timestamp: ISO_TIME,
  generated_at: ISO_TIME,
  created_at: ISO_TIME,
  published_at: ISO_TIME,
  snapshot_id: SNAPSHOT_ID,
  since: SNAPSHOT_ID,
  key: /^mts_[A-Za-z0-9_-]{43}$/,
};

/** JSON members whose number grows with the clock (health's age of the data): compared as a number of days. */
const VARYING_NUMBERS = new Set(['age_days']);

/** Headers whose value changes with the run, the day or the key's count, and the form it must have. */
export const VARYING_HEADERS: Record<string, RegExp> = {
  // Weak: the snapshot id's first 12 hex digits, then a hash of the request in base 36 (src/gateway/etag.ts).
  etag: /^W\/"[0-9a-f]{12}-[0-9a-z]+"$/,
  'x-ratelimit-remaining': /^\d+$/,
  'x-ratelimit-reset': /^\d{10}$/,
  'retry-after': /^\d+$/,
};

/** Headers `curl -i` prints that no document shows: they say nothing about the service. */
export const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** In a sentence: timestamps and "in N s" change with the clock. */
function steady(text: string): string {
  return text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>').replace(/\(in \d+ s\b/g, '(in <n> s');
}

const ELIDED = '...';

/** Differences between the JSON value `shown` and `actual`, at `at`. */
export function compareJson(shown: unknown, actual: unknown, at = '$'): string[] {
  const member = at.slice(at.lastIndexOf('.') + 1);
  const form = at.endsWith('.snapshot.id') ? SNAPSHOT_ID : VARYING_MEMBERS[member];
  if (form !== undefined && typeof shown === 'string') {
    return typeof actual === 'string' && form.test(actual) && form.test(shown)
      ? []
      : [`${at}: ${JSON.stringify(actual)} (shown ${JSON.stringify(shown)}) is not of the form ${form}`];
  }
  if (VARYING_NUMBERS.has(member) && typeof shown === 'number') {
    return typeof actual === 'number' && actual >= 0
      ? []
      : [`${at}: ${JSON.stringify(actual)} is not a number of days`];
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${at}: shown an array, got ${JSON.stringify(actual)}`];
    if (shown.length !== actual.length) return [`${at}: shown ${shown.length} items, got ${actual.length}`];
    return shown.flatMap((item, index) => compareJson(item, actual[index], `${at}[${index}]`));
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return [`${at}: shown an object, got ${JSON.stringify(actual)}`];
    const shownObject = shown as Record<string, unknown>;
    const actualObject = actual as Record<string, unknown>;
    const elided = shownObject[ELIDED] === ELIDED;
    const names = Object.keys(shownObject).filter((name) => !(elided && name === ELIDED));
    const actualNames = Object.keys(actualObject);
    const problems: string[] = [];
    const missing = names.filter((name) => !(name in actualObject));
    if (missing.length > 0) problems.push(`${at}: shown ${missing.join(', ')}, which the answer does not have`);
    const unshown = actualNames.filter((name) => !names.includes(name));
    if (!elided && unshown.length > 0) problems.push(`${at}: the answer also has ${unshown.join(', ')}`);
    const order = actualNames.filter((name) => names.includes(name));
    if (missing.length === 0 && order.join() !== names.join())
      problems.push(`${at}: members in the order ${order.join(', ')}, shown ${names.join(', ')}`);
    for (const name of names.filter((n) => n in actualObject))
      problems.push(...compareJson(shownObject[name], actualObject[name], `${at}.${name}`));
    return problems;
  }
  if (typeof shown === 'string' && typeof actual === 'string' && steady(shown) === steady(actual)) return [];
  return Object.is(shown, actual) ? [] : [`${at}: got ${JSON.stringify(actual)}, shown ${JSON.stringify(shown)}`];
}

/**
 * How much longer the real body is than the shown one only because the clock moved: the digits of "(in N s"
 * (timestamps keep their length). A shown `content-length` is compared after adding this.
 */
export function clockDelta(shownBody: string, actualBody: string): number {
  const seconds = (text: string) => [...text.matchAll(/\(in (\d+) s\b/g)].map((match) => match[1]?.length ?? 0);
  const shown = seconds(shownBody);
  return seconds(actualBody).reduce((sum, length, index) => sum + length - (shown[index] ?? length), 0);
}

/** Differences between a shown header and the real one (`delta`: see clockDelta). */
export function compareHeader(name: string, shown: string, actual: string | undefined, delta = 0): string[] {
  if (actual === undefined) return [`header ${name}: shown, but the answer does not send it`];
  if (name === 'content-length' && /^\d+$/.test(shown))
    return Number(shown) + delta === Number(actual) ? [] : [`header ${name}: got ${actual}, shown ${shown}`];
  const form = VARYING_HEADERS[name];
  if (form !== undefined)
    return form.test(actual) && form.test(shown)
      ? []
      : [`header ${name}: ${actual} (shown ${shown}), not of the form ${form}`];
  return shown === actual ? [] : [`header ${name}: got ${actual}, shown ${shown}`];
}

/**
 * The text `npm start` prints, with what changes on every run put in the same words: the key and its hash,
 * the port, snapshot ids, build times and durations.
 */
export function steadyOutput(text: string): string {
  return text
    .replace(/mts_[A-Za-z0-9_-]{43}/g, '<key>')
    .replace(/hash \([0-9a-f]{8}\.\.\.\)/g, 'hash (<hash>...)')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/snapshot [0-9a-f]{12}\b/g, 'snapshot <id>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/\b\d+(\.\d+)? (ms|s)\b/g, '<n> $2');
}
