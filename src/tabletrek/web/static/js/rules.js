// A game's rules page, rendered on the server from the game's rules Markdown.
import { el, clear } from "./dom.js";
import { renderHeader } from "./header.js";
import { currentLang, isWanted, loadCatalogs, storedLang, t } from "./i18n.js";
import { failure, requestJson } from "./api.js";

const game = decodeURIComponent(location.pathname.split("/").pop());

async function start(lang) {
  if (!(await loadCatalogs(lang))) return; // another language was chosen since
  const [ok, body] = await requestJson(`/api/games/${encodeURIComponent(game)}/rules?lang=${lang}`);
  if (!isWanted(lang)) return; // the page in the newer language draws instead
  renderHeader(start);
  const main = clear(document.getElementById("main"));
  if (!ok) {
    main.append(failure(body, () => start(currentLang())));
    return;
  }
  const box = el("article", { class: "rules", id: "rules" });
  box.innerHTML = body.html; // rendered from the package's own Markdown with raw HTML disabled
  // a table or a code block wider than a phone scrolls in a box of its own, not the whole page
  // (focusable, so a keyboard can scroll it too)
  for (const table of box.querySelectorAll("table")) {
    const scroller = el("div", { class: "scroll", tabindex: "0" });
    table.replaceWith(scroller);
    scroller.append(table);
  }
  for (const pre of box.querySelectorAll("pre")) pre.setAttribute("tabindex", "0");
  main.append(box);
  document.title = `${body.title} — ${t("web.ui.rules")} — tabletrek`;
}

start(storedLang());
