// Browse: the filters and sorts of List Servers, paged.
import { showServer } from './card.js';
import { api, state } from './client.js';
import { $, fmt, h } from './dom.js';
import { labelChip, nameNode, scorePill } from './labels.js';
import { unknownFilterNotes } from './filters.js';
import { explainGlobally, keyWorks } from './notices.js';
import { flagMeaning } from './words.js';

export function setupBrowse() {
  const form = /** @type {HTMLFormElement} */ ($('browse-form'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    state.list.offset = 0;
    void loadList();
  });
  form.addEventListener('reset', () => {
    // After the reset has restored the defaults.
    setTimeout(() => {
      state.list.offset = 0;
      void loadList();
    });
  });
  for (const id of ['f-sort', 'f-order', 'f-limit']) {
    $(id).addEventListener('change', () => {
      state.list.offset = 0;
      void loadList();
    });
  }
  $('page-prev').addEventListener('click', () => {
    state.list.offset = Math.max(0, state.list.offset - state.list.limit);
    void loadList(true);
  });
  $('page-next').addEventListener('click', () => {
    state.list.offset += state.list.limit;
    void loadList(true);
  });
}

/** The fields of the list's view kept in the page's query string, so a view can be shared and restored. */
const VIEW_FIELDS = ['min_score', 'flags', 'target', 'namespace', 'sort', 'order', 'limit'];

/** Set the filters, sort, page size and offset from the query string (a shared or reloaded view). */
export function restoreListFromUrl() {
  const query = new URLSearchParams(location.search);
  const form = /** @type {HTMLFormElement} */ ($('browse-form'));
  for (const name of VIEW_FIELDS) {
    const value = query.get(name);
    if (value === null) continue;
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLSelectElement) {
      // Only a choice the select offers: anything else would silently become its first option.
      if ([...field.options].some((option) => option.value === value && !option.disabled)) field.value = value;
    } else if (field instanceof HTMLInputElement) field.value = value.slice(0, 200);
  }
  const offset = Number(query.get('offset'));
  state.list.offset = Number.isInteger(offset) && offset > 0 ? offset : 0;
}

/**
 * Put the view in the query string: the values that differ from the form's defaults, and the offset past the
 * first page. Replaced, not pushed: Back keeps leaving the page (or the card) as before.
 * @param {number} offset
 */
function writeListUrl(offset) {
  const form = /** @type {HTMLFormElement} */ ($('browse-form'));
  const query = new URLSearchParams();
  for (const name of VIEW_FIELDS) {
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLSelectElement) {
      const chosen = field.options[field.selectedIndex];
      if (chosen && !chosen.defaultSelected) query.set(name, chosen.value);
    } else if (field instanceof HTMLInputElement && field.value.trim()) query.set(name, field.value.trim());
  }
  if (offset > 0) query.set('offset', String(offset));
  const search = query.toString();
  const url = `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', url);
}

/** @param {string} flag */
export function filterByFlag(flag) {
  const form = /** @type {HTMLFormElement} */ ($('browse-form'));
  // "The servers flagged X": the other filters go, the sort and page size stay.
  for (const name of ['min_score', 'target', 'namespace'])
    /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value = '';
  /** @type {HTMLInputElement} */ (form.elements.namedItem('flags')).value = flag;
  state.list.offset = 0;
  void loadList();
  $('browse').scrollIntoView({ block: 'start' });
  $('browse-title').setAttribute('tabindex', '-1');
  $('browse-title').focus({ preventScroll: true });
}

/**
 * Under an empty list, say which flag or target the data does not know and name the known ones; otherwise
 * clear that note.
 * @param {number} seq the list load this belongs to
 * @param {{ flags: string, target: string } | null} filters the filters of an empty answer, or null
 */
async function explainEmpty(seq, filters) {
  const box = $('browse-unknown');
  const notes = filters ? await unknownFilterNotes(filters, useKnownValue) : null;
  if (seq !== state.listSeq) return;
  box.replaceChildren(...(notes ?? []));
  box.hidden = notes === null;
}

/**
 * Put a known value in place of the unknown one (the other flags of the field stay), and list again.
 * @param {'flags' | 'target'} field
 * @param {string} from
 * @param {string} to
 */
function useKnownValue(field, from, to) {
  const form = /** @type {HTMLFormElement} */ ($('browse-form'));
  const input = /** @type {HTMLInputElement} */ (form.elements.namedItem(field));
  input.value =
    field === 'target'
      ? to
      : input.value
          .split(',')
          .map((part) => (part.trim() === from ? to : part.trim()))
          .filter(Boolean)
          .join(',');
  state.list.offset = 0;
  void loadList();
}

/** @param {boolean} [paging] */
export async function loadList(paging = false) {
  const seq = ++state.listSeq;
  const form = /** @type {HTMLFormElement} */ ($('browse-form'));
  const value = (/** @type {string} */ name) =>
    /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
  const limit = Number(value('limit')) || 25;
  state.list.limit = limit;
  const params = {
    limit,
    offset: state.list.offset,
    sort: value('sort'),
    order: value('order'),
    min_score: value('min_score'),
    flags: value('flags'),
    target: value('target'),
    namespace: value('namespace'),
  };
  writeListUrl(state.list.offset);
  const rows = $('browse-rows');
  const error = $('browse-error');
  rows.parentElement?.setAttribute('aria-busy', 'true');
  try {
    const { data, meta } = await api('/servers', params);
    if (seq !== state.listSeq) return;
    keyWorks();
    error.hidden = true;
    state.list.total = meta.total;
    state.list.offset = meta.offset;
    rows.replaceChildren(
      ...data.map((/** @type {any} */ record) => {
        const open = h('button', { type: 'button', class: 'linkish' }, nameNode(record.name));
        open.addEventListener('click', () => showServer(record.name));
        return h(
          'tr',
          null,
          h('td', null, open),
          h('td', { class: 'num' }, scorePill(record)),
          h('td', null, labelChip(record.trust_label)),
          // The labels name the cells where the rows stack into cards on a phone (style.css).
          h(
            'td',
            { 'data-label': 'Flags' },
            record.flags.length === 0
              ? h('span', { class: 'none', text: '—' })
              : h(
                  'ul',
                  { class: 'chips' },
                  ...record.flags.map((/** @type {string} */ flag) =>
                    h('li', { class: 'chip chip-flag', text: flag, title: flagMeaning(flag) ?? '' }),
                  ),
                ),
          ),
          h(
            'td',
            { 'data-label': 'Targets' },
            record.targets.length === 0 ? h('span', { class: 'none', text: '—' }) : record.targets.join(', '),
          ),
        );
      }),
    );
    if (data.length === 0) {
      rows.append(
        h(
          'tr',
          null,
          h('td', {
            colspan: '5',
            class: 'none',
            text: meta.total === 0 ? 'No server matches these filters.' : 'No servers on this page.',
          }),
        ),
      );
    }
    void explainEmpty(seq, meta.total === 0 ? params : null);
    const first = data.length === 0 ? 0 : meta.offset + 1;
    const last = meta.offset + data.length;
    $('page-status').textContent =
      data.length === 0 ? `0 of ${fmt(meta.total)}` : `${fmt(first)}–${fmt(last)} of ${fmt(meta.total)}`;
    $('browse-caption').textContent = `Servers ${first} to ${last} of ${meta.total}`;
    /** @type {HTMLButtonElement} */ ($('page-prev')).disabled = meta.offset === 0;
    /** @type {HTMLButtonElement} */ ($('page-next')).disabled = last >= meta.total;
    if (paging) $('browse').scrollIntoView({ block: 'nearest' });
  } catch (failure) {
    if (seq !== state.listSeq) return;
    $('browse-unknown').hidden = true;
    if (!explainGlobally(failure)) {
      error.textContent = failure instanceof Error ? failure.message : String(failure);
      error.hidden = false;
    }
  } finally {
    if (seq === state.listSeq) rows.parentElement?.setAttribute('aria-busy', 'false');
  }
}
