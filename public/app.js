// The explorer and the API reference of the MCP Trust Score site. Plain JavaScript, no framework, no
// dependency. It talks to nothing but this host: `openapi.json` and the API under /v1.
//
// Safety: every value from the API or the user reaches the page through textContent or an attribute set by
// setAttribute (never innerHTML), so a server name cannot inject markup. The API key lives in localStorage
// and travels only in the X-API-Key header: never in a URL, never in the page's text.
import { setupAccess } from './js/access.js';
import { loadList, restoreListFromUrl, setupBrowse } from './js/browse.js';
import { openServer, serverFromHash } from './js/card.js';
import { setupCheck } from './js/check.js';
import { answers, state } from './js/client.js';
import { $ } from './js/dom.js';
import { setupKey, showNoKey, updateQuota } from './js/notices.js';
import { loadDocument, localiseExamples } from './js/reference.js';
import { runSearch, setupSearch } from './js/search.js';
import { loadStats } from './js/stats.js';
import { SEARCH_MIN } from './js/words.js';

/** Everything the explorer shows with a key, loaded again when the key changes. */
function reloadExplorer() {
  void loadStats();
  void loadList();
  const query = /** @type {HTMLInputElement} */ ($('search-input')).value.trim();
  if (query.length >= SEARCH_MIN) void runSearch(query);
  if (state.openName) void openServer(state.openName);
}

/** How long a shared link's card waits for the statistics above it before it is scrolled into view. */
const STATS_WAIT_MS = 2000;

async function main() {
  // The modules import downwards only (client and notices know no page part); the page's wiring is here.
  answers.addEventListener('answer', (event) => updateQuota(/** @type {CustomEvent<Response>} */ (event).detail));
  setupKey(reloadExplorer);
  setupSearch();
  setupBrowse();
  setupAccess();
  setupCheck();
  localiseExamples();
  window.addEventListener('hashchange', () => {
    const name = serverFromHash();
    if (name) void openServer(name);
  });
  const ready = await loadDocument();
  if (!ready) return;
  // After the document: the sort and order choices come from it, and a shared view may name them.
  restoreListFromUrl();
  if (!state.key) {
    showNoKey();
    const name = serverFromHash();
    if (name) state.openName = name;
    return;
  }
  const stats = loadStats();
  void loadList();
  const name = serverFromHash();
  if (name) {
    // A shared link to a card: bring the card into view once it is drawn, as a link to an anchor would. The
    // statistics above it change its place, so they are waited for too, but not for long: slow statistics
    // must not keep the card the link names out of view.
    const statsOrLate = Promise.race([stats, new Promise((resolve) => setTimeout(resolve, STATS_WAIT_MS))]);
    void Promise.all([statsOrLate, openServer(name, false)]).then(() => {
      if (state.openName === name) $('server').scrollIntoView({ block: 'start' });
    });
  }
}

void main();
