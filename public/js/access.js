// Get access: a free key from the API itself (`POST /v1/keys`), shown once, then used by the explorer.
import { ApiFailure, requestKey } from './client.js';
import { $, fmt, h } from './dom.js';
import { useKey } from './notices.js';

export function setupAccess() {
  const form = /** @type {HTMLFormElement} */ ($('access-form'));
  const label = /** @type {HTMLInputElement} */ ($('access-label'));
  const submit = /** @type {HTMLButtonElement} */ ($('access-submit'));
  const result = $('access-result');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    // A second click while the first request runs would spend another of the address's few keys a day.
    if (submit.disabled) return;
    submit.disabled = true;
    result.replaceChildren(h('p', { class: 'placeholder', text: 'Asking for a key…' }));
    try {
      const issued = await requestKey(label.value.trim());
      label.value = '';
      result.replaceChildren(issuedKey(issued));
      /** @type {HTMLInputElement} */ ($('api-key')).value = issued.key;
      useKey(issued.key);
    } catch (error) {
      result.replaceChildren(h('p', { class: 'inline-error', role: 'alert', text: failureText(error) }));
    } finally {
      submit.disabled = false;
    }
  });
}

/** What to say when no key came: the API's own message where it gave one (429, 403), with its status. @param {unknown} error */
function failureText(error) {
  if (!(error instanceof ApiFailure)) return String(error instanceof Error ? error.message : error);
  if (error.status === 0) return error.message;
  if (error.status === 404 || error.status === 405)
    return `This deployment does not issue keys here (${error.status}). ${error.message}`;
  return `${error.message} (${error.status})`;
}

/**
 * The new key, in a read-only field with a Copy button. It is a field's value, not text of the page, and it
 * is gone with the next reload: the service keeps only its hash.
 * @param {{ key: string, plan?: string, daily_limit?: number, label?: string | null }} issued
 */
function issuedKey(issued) {
  const field = /** @type {HTMLInputElement} */ (
    h('input', {
      id: 'access-key',
      class: 'new-key',
      type: 'text',
      readonly: true,
      spellcheck: 'false',
      autocomplete: 'off',
      'aria-describedby': 'access-once',
    })
  );
  field.value = issued.key;
  field.addEventListener('focus', () => field.select());
  const copy = h('button', { type: 'button', class: 'ghost', text: 'Copy', 'aria-label': 'Copy the new key' });
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(issued.key);
      copy.textContent = 'Copied';
    } catch {
      // No clipboard permission: select the key so Ctrl+C (or ⌘C) copies it.
      field.focus();
      field.select();
      copy.textContent = 'Press Ctrl+C';
    }
    setTimeout(() => (copy.textContent = 'Copy'), 2000);
  });
  const limit =
    typeof issued.daily_limit === 'number'
      ? `${fmt(issued.daily_limit)} ${issued.daily_limit === 1 ? 'request' : 'requests'} a day`
      : '';
  return h(
    'div',
    { class: 'issued' },
    h('label', { for: 'access-key', text: 'Your new key' }),
    h('div', { class: 'input-row' }, field, copy),
    h('p', {
      id: 'access-once',
      class: 'once',
      text: 'Copy it now: this key is shown only this once and will not be shown again (the service keeps only a hash of it).',
    }),
    h('p', {
      class: 'hint',
      text: `Plan ${issued.plan ?? 'free'}${limit ? `, ${limit}` : ''}. The explorer now uses it; it is kept in this browser's local storage like a key entered above.`,
    }),
  );
}
