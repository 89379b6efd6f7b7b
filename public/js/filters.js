// The values the list's flag and target filters know: offered as the fields' choices, and named, closest first,
// when a filter matches nothing because its value is not one the data knows (the API answers such a filter
// with an empty page, as decided; only the page can tell a person why).
import { api, state } from './client.js';
import { $, fmt, h } from './dom.js';
import { FLAGS } from '../vocabulary.js';

/** How many of the known values a notice names before it says how many there are in all. */
const NAMED = 8;

/**
 * The flags and targets of the served snapshot, from `/v1/stats`: each with its count, most common first.
 * Flags of the vocabulary that no server carries come last, with 0.
 * @param {any} stats
 */
function knownValues(stats) {
  const byCount = (/** @type {Record<string, number>} */ summary) =>
    Object.entries(summary).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const flags = byCount(stats.flag_summary ?? {});
  for (const flag of FLAGS) if (!flags.some(([name]) => name === flag.name)) flags.push([flag.name, 0]);
  return { flags, targets: byCount(stats.target_summary ?? {}) };
}

/**
 * Offer the known values as the choices of the Flag and Target fields.
 * @param {any} stats the body of `/v1/stats`
 */
export function offerFilterValues(stats) {
  state.stats = stats;
  const { flags, targets } = knownValues(stats);
  const meaning = new Map(FLAGS.map((flag) => [flag.name, flag.meaning]));
  $('flag-names').replaceChildren(
    ...flags.map(([name, count]) =>
      h('option', { value: name, label: `${fmt(count)} servers: ${meaning.get(name) ?? 'a flag of the data'}` }),
    ),
  );
  $('target-names').replaceChildren(
    ...targets.map(([name, count]) => h('option', { value: name, label: `${fmt(count)} servers` })),
  );
}

/** Edit distance (insertions, deletions, substitutions) of two short strings. */
function distance(/** @type {string} */ a, /** @type {string} */ b) {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * `names` ordered closest to `value` first: one that starts with the other (`postgres`, `PostgreSQL`), then one
 * that contains the other, then by edit distance, case ignored; ties keep the order given (most common first).
 * @param {string} value
 * @param {string[]} names
 */
export function closestFirst(value, names) {
  const typed = value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
  const rank = (/** @type {string} */ name) => {
    const known = name.toLowerCase().replace(/[\s_-]+/g, '');
    const tier =
      known.startsWith(typed) || typed.startsWith(known) ? 0 : known.includes(typed) || typed.includes(known) ? 1 : 2;
    return [tier, distance(typed, known)];
  };
  return names
    .map((name, index) => ({ name, index, rank: rank(name) }))
    .sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1] || a.index - b.index)
    .map((entry) => entry.name);
}

/**
 * Why an empty list may be empty: for each flag or target of `filters` the snapshot does not know, a sentence
 * naming the known values, closest first, each a button that puts it into the filter (`apply`). Null when every
 * value is known (the filters together just match nothing), or when the statistics cannot be read.
 * @param {{ flags: string, target: string }} filters
 * @param {(field: 'flags' | 'target', from: string, to: string) => void} apply
 * @returns {Promise<HTMLElement[] | null>}
 */
export async function unknownFilterNotes(filters, apply) {
  if (!filters.flags && !filters.target) return null;
  let stats = state.stats;
  if (!stats) {
    try {
      stats = (await api('/stats')).data;
    } catch {
      return null;
    }
  }
  const { flags, targets } = knownValues(stats);
  const inUse = (/** @type {Array<[string, number]>} */ entries) =>
    entries.filter(([, count]) => count > 0).map(([name]) => name);
  const same = (/** @type {string} */ a, /** @type {string} */ b) => a.toLowerCase() === b.toLowerCase();
  const notes = [];
  for (const flag of filters.flags
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const count = flags.find(([name]) => same(name, flag))?.[1];
    if (count !== undefined && count > 0) continue;
    const lead =
      count === undefined
        ? `"${flag}" is not a flag this service knows, so no server carries it.`
        : `No server carries the flag "${flag}" in this snapshot.`;
    notes.push(note(lead, 'Flags in use', closestFirst(flag, inUse(flags)), (name) => apply('flags', flag, name)));
  }
  const target = filters.target.trim();
  if (target && !targets.some(([name]) => same(name, target))) {
    notes.push(
      note(
        `No server has the target "${target}": targets are named as platforms.`,
        'Known targets',
        closestFirst(target, inUse(targets)),
        (name) => apply('target', target, name),
      ),
    );
  }
  return notes.length === 0 ? null : notes;
}

/**
 * @param {string} lead
 * @param {string} what
 * @param {string[]} names closest first
 * @param {(name: string) => void} choose
 */
function note(lead, what, names, choose) {
  const shown = names.slice(0, NAMED);
  const buttons = shown.map((name) => {
    const button = h('button', { type: 'button', class: 'linkish known-value', text: name });
    button.addEventListener('click', () => choose(name));
    return h('li', null, button);
  });
  const rest = names.length > shown.length ? ` (${fmt(names.length)} in all; the field offers every one)` : '';
  return h(
    'div',
    { class: 'unknown-filter' },
    h('p', { text: `${lead} ${what}, closest first${rest}:` }),
    h('ul', { class: 'known-values' }, ...buttons),
  );
}
