// The explorer and the API reference of the MCP Trust Score site. Plain JavaScript, no framework, no
// dependency. It talks to nothing but this host: `openapi.json` and the API under /v1.
//
// Safety: every value from the API or the user reaches the page through textContent or an attribute set by
// setAttribute (never innerHTML), so a server name cannot inject markup. The API key lives in localStorage
// and travels only in the X-API-Key header: never in a URL, never in the page's text.
import { loadList, setupBrowse } from './js/browse.js';
import { openServer, serverFromHash } from './js/card.js';
import { state } from './js/client.js';
import { setupKey, showNoKey } from './js/notices.js';
import { loadDocument, localiseExamples } from './js/reference.js';
import { setupSearch } from './js/search.js';
import { loadStats } from './js/stats.js';

async function main() {
  setupKey();
  setupSearch();
  setupBrowse();
  localiseExamples();
  window.addEventListener('hashchange', () => {
    const name = serverFromHash();
    if (name) void openServer(name);
  });
  const ready = await loadDocument();
  if (!ready) return;
  if (!state.key) {
    showNoKey();
    const name = serverFromHash();
    if (name) state.openName = name;
    return;
  }
  void loadStats();
  void loadList();
  const name = serverFromHash();
  if (name) void openServer(name, false);
}

void main();
