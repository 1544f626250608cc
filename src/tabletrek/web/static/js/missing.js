// The page for an address the server has no page at (a mistyped or outdated link): it says so in
// the reader's language, with a way on to the lobby.
import { clear } from "./dom.js";
import { renderHeader } from "./header.js";
import { loadCatalogs, storedLang } from "./i18n.js";
import { failure } from "./api.js";

async function start(lang) {
  if (!(await loadCatalogs(lang))) return; // another language was chosen since
  renderHeader(start);
  clear(document.getElementById("main")).append(failure({ key: "web.error.no_page", args: {} }, null));
}

start(storedLang());
