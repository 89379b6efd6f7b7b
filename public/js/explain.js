// Why a server has its score, from its explanation (`/explain`): the summary sentence, then each sub-score's
// weight and what each signal gave, folded away so the card stays short.
import { api } from './client.js';
import { h } from './dom.js';
import { unavailable } from './history.js';
import { SUBSCORES } from './words.js';

/**
 * The explanation block of a card: a placeholder at once, the explanation when the answer comes, a short
 * note if it fails (the rest of the card does not depend on it).
 * @param {string} path the server's API path, `/servers/<namespace>/<id>`
 */
export function explainBlock(path) {
  const box = h(
    'div',
    { class: 'explain', 'aria-busy': 'true' },
    h('p', { class: 'placeholder', text: 'Loading the explanation…' }),
  );
  api(`${path}/explain`)
    .then(({ data }) => box.replaceChildren(...explainView(data)))
    .catch((error) => box.replaceChildren(unavailable('The explanation of this score', error)))
    .finally(() => box.setAttribute('aria-busy', 'false'));
  return box;
}

/** @param {any} explanation */
function explainView(explanation) {
  const titles = new Map(SUBSCORES.map(([key, title]) => [key, title]));
  const subscores = /** @type {any[]} */ (explanation.subscores ?? []);
  const list = h(
    'ul',
    { class: 'explain-list' },
    ...subscores.map((subscore) => {
      const weight = `${Math.round(Number(subscore.weight) * 100)}%`;
      // Where the recomputation differs, both values are said: the stored one is what the API serves. A
      // sub-score nothing of which was measured (mts-2) says so: its 0 is not a finding.
      const value =
        subscore.measured === false
          ? 'not measured: left out of the trust score'
          : subscore.reproduced
            ? `${subscore.stored} of 100`
            : `${subscore.stored} of 100 (recomputed: ${subscore.computed ?? 'not possible'})`;
      const contributions = /** @type {any[]} */ (subscore.contributions ?? []);
      return h(
        'li',
        null,
        h(
          'p',
          { class: 'explain-head' },
          h('strong', { text: titles.get(subscore.name) ?? subscore.name }),
          ` · weight ${weight} · ${value}`,
        ),
        contributions.length === 0
          ? h('p', { class: 'none', text: 'No signal detail for this sub-score.' })
          : h(
              'ul',
              { class: 'explain-notes' },
              ...contributions.map((contribution) =>
                h('li', {
                  class:
                    contribution.measured === false
                      ? 'unmeasured'
                      : contribution.points < contribution.max
                        ? 'short'
                        : undefined,
                  text: contribution.note,
                }),
              ),
            ),
      );
    }),
  );
  const parts = [
    h('p', { class: 'explain-summary', text: explanation.summary }),
    h(
      'details',
      { class: 'explain-details' },
      h('summary', { text: 'Each sub-score, signal by signal' }),
      list,
      explanation.method
        ? h('p', {
            class: 'hint',
            text:
              typeof explanation.confidence === 'number'
                ? `Method: ${explanation.method}; confidence ${explanation.confidence}/100 (the share of the method's weight that was measured).`
                : `Method: ${explanation.method}.`,
          })
        : null,
    ),
  ];
  return parts;
}
