// Search as you type.
import { showServer } from './card.js';
import { api, state } from './client.js';
import { $, fmt, h } from './dom.js';
import { labelChip, nameNode, scorePill } from './labels.js';
import { explainGlobally, keyWorks } from './notices.js';
import { SEARCH_DEBOUNCE_MS, SEARCH_LIMIT, SEARCH_MIN } from './words.js';

export function setupSearch() {
  const input = /** @type {HTMLInputElement} */ ($('search-input'));
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (query.length < SEARCH_MIN) {
      state.searchSeq += 1;
      $('search-results').replaceChildren();
      $('search-status').textContent = `Type at least ${SEARCH_MIN} characters.`;
      return;
    }
    timer = setTimeout(() => void runSearch(query), SEARCH_DEBOUNCE_MS);
  });
  // Searching descriptions too is a choice of where to look: the same words, asked again.
  $('search-descriptions').addEventListener('change', () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (query.length >= SEARCH_MIN) void runSearch(query);
  });
  $('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(timer);
    const query = input.value.trim();
    if (query.length >= SEARCH_MIN) void runSearch(query);
  });
  // Arrow keys move between the input and the results; Escape goes back to the input.
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown') {
      const first = /** @type {HTMLElement | null} */ ($('search-results').querySelector('button'));
      if (first) {
        event.preventDefault();
        first.focus();
      }
    }
  });
  $('search-results').addEventListener('keydown', (event) => {
    const buttons = [...$('search-results').querySelectorAll('button')];
    const index = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    if (index === -1) return;
    if (event.key === 'ArrowDown' && index < buttons.length - 1) buttons[index + 1]?.focus();
    else if (event.key === 'ArrowUp') (index === 0 ? input : buttons[index - 1])?.focus();
    else if (event.key === 'Escape') input.focus();
    else return;
    event.preventDefault();
  });
}

/** @param {string} query */
export async function runSearch(query) {
  const seq = ++state.searchSeq;
  const status = $('search-status');
  const list = $('search-results');
  status.textContent = 'Searching…';
  list.setAttribute('aria-busy', 'true');
  try {
    const descriptions = /** @type {HTMLInputElement} */ ($('search-descriptions')).checked;
    const { data, meta } = await api('/search', {
      q: query,
      limit: SEARCH_LIMIT,
      ...(descriptions ? { in: 'name,description' } : {}),
    });
    if (seq !== state.searchSeq) return;
    keyWorks();
    list.replaceChildren(
      ...data.map((/** @type {any} */ record) => {
        const button = h(
          'button',
          {
            type: 'button',
            class: 'result',
            'data-name': record.name,
            'aria-current': record.name === state.openName ? 'true' : undefined,
          },
          scorePill(record),
          nameNode(record.name),
          labelChip(record.trust_label),
        );
        button.addEventListener('click', () => showServer(record.name));
        return h('li', null, button);
      }),
    );
    status.textContent =
      meta.total === 0
        ? descriptions
          ? `No server name or description matches “${query}”.`
          : `No server name matches “${query}”. Tick “Also search what servers do” to look in their descriptions.`
        : meta.total > data.length
          ? `Best ${data.length} of ${fmt(meta.total)} matches for “${query}”.`
          : `${fmt(meta.total)} ${meta.total === 1 ? 'match' : 'matches'} for “${query}”.`;
  } catch (error) {
    if (seq !== state.searchSeq) return;
    list.replaceChildren();
    if (!explainGlobally(error)) status.textContent = error instanceof Error ? error.message : String(error);
    else status.textContent = 'Search is not available right now.';
  } finally {
    if (seq === state.searchSeq) list.setAttribute('aria-busy', 'false');
  }
}
