// A game's rules page, rendered on the server from the game's rules Markdown.
import { el, clear } from "./dom.js";
import { renderHeader } from "./header.js";
import { isWanted, loadCatalogs, storedLang, t } from "./i18n.js";

const game = decodeURIComponent(location.pathname.split("/").pop());

async function start(lang) {
  if (!(await loadCatalogs(lang))) return; // another language was chosen since
  const resp = await fetch(`/api/games/${encodeURIComponent(game)}/rules?lang=${lang}`);
  const body = await resp.json();
  if (!isWanted(lang)) return; // the page in the newer language draws instead
  renderHeader(start);
  const main = clear(document.getElementById("main"));
  if (!resp.ok) {
    main.append(el("p", { class: "error" }, t(body.key, body.args)));
    return;
  }
  const box = el("article", { class: "rules", id: "rules" });
  box.innerHTML = body.html; // rendered from the package's own Markdown with raw HTML disabled
  main.append(box);
  document.title = `${game} — ${t("web.ui.rules")}`;
}

start(storedLang());
