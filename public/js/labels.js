// Labels.
import { state } from './client.js';
import { h } from './dom.js';
import { BAND_KEYS } from './words.js';

/** @param {string} label */
export function bandKey(label) {
  const index = state.labels.indexOf(label);
  return BAND_KEYS[index] ?? 'unknown';
}

/** @param {string} label */
export const labelChip = (label) => h('span', { class: `chip label-${bandKey(label)}`, text: label });

/** The UTC day of a `scored_at` (`2026-02-21`). @param {string} iso */
export const scoredDay = (iso) => /^\d{4}-\d{2}-\d{2}/.exec(iso)?.[0] ?? iso;

/** `scored on 2026-02-21`: the day a score was made, in the same words as the MCP tools' texts. @param {string} iso */
export const scoredOn = (iso) => `scored on ${scoredDay(iso)}`;

/** @param {{ trust_score: number, trust_label: string, scored_at?: string }} record */
export const scorePill = (record) =>
  h('span', {
    class: `score-pill score-${bandKey(record.trust_label)}`,
    text: record.trust_score,
    title: `Trust score ${record.trust_score} of 100${record.scored_at ? `, ${scoredOn(record.scored_at)}` : ''}`,
  });

/** @param {string} name */
export function nameParts(name) {
  const slash = name.indexOf('/');
  return { namespace: name.slice(0, slash), id: name.slice(slash + 1) };
}

/** @param {string} name */
export function nameNode(name) {
  const { namespace, id } = nameParts(name);
  return h(
    'span',
    { class: 'name' },
    h('span', { class: 'ns', text: `${namespace}/` }),
    h('span', { class: 'id', text: id }),
  );
}
