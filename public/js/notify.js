// "Notify me" on a server card: subscribe a receiver of the visitor's to this server's score changes
// (`POST /v1/webhooks` with the visitor's key), then show the signing secret once, with a snippet that
// verifies a delivery (docs/notifications.md).
import { ApiFailure, apiPost } from './client.js';
import { h } from './dom.js';

const VERIFY_SNIPPET = (secret) =>
  [
    "import { Webhook } from 'standardwebhooks';",
    `const webhook = new Webhook('${secret}');`,
    '// body: the raw request body as received; headers: the request headers',
    'const event = webhook.verify(body, headers); // throws when the signature is wrong',
  ].join('\n');

/**
 * The "Notify me" block of a card.
 * @param {string} name the server's name
 */
export function notifyBlock(name) {
  const url = h('input', {
    type: 'url',
    required: 'required',
    placeholder: 'https://your-receiver.example/hook',
    'aria-label': 'The https:// address that receives the events',
  });
  const status = h('div', { class: 'notify-result', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', text: 'Notify me' });
  button.addEventListener('click', () => {
    const address = /** @type {HTMLInputElement} */ (url).value.trim();
    if (address === '') return;
    button.setAttribute('disabled', 'disabled');
    status.replaceChildren(h('p', { class: 'placeholder', text: 'Subscribing…' }));
    apiPost('/webhooks', { url: address, servers: [name] })
      .then(({ data }) =>
        status.replaceChildren(
          h('p', { text: `Subscribed (${data.id}): every change of ${name} is POSTed to your receiver, signed.` }),
          h('p', { text: 'The signing secret, shown only this once (it is kept encrypted and never shown again):' }),
          h('pre', {}, h('code', { text: data.secret })),
          h('p', { text: 'Verify each delivery with it, for example in Node with the standardwebhooks library:' }),
          h('pre', {}, h('code', { text: VERIFY_SNIPPET(data.secret) })),
        ),
      )
      .catch((error) => {
        const why = error instanceof ApiFailure ? error.message : 'the request failed';
        status.replaceChildren(h('p', { class: 'none', text: `Not subscribed: ${why}` }));
      })
      .finally(() => button.removeAttribute('disabled'));
  });
  return h(
    'div',
    { class: 'notify' },
    h('p', {
      text: 'Get a signed webhook when this server’s score, label, flags, tools or advisories change, or when it is removed.',
    }),
    url,
    button,
    status,
  );
}
