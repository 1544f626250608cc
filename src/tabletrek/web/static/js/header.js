// The page header: home link, language switch, nickname.
import { el, clear } from "./dom.js";
import { currentLang, setLang, t } from "./i18n.js";
import { readText, writeText } from "./store.js";

const MAX_NICKNAME = 32; // the server's limit (core/characters.py MAX_NAME), and the input's

/** The nickname this browser keeps, if it is one the input could have made: a stored value that
 * is not (too long, control characters) would have the server refuse this browser's every hello. */
export function nickname() {
  const value = (readText("tt.nick") || "").trim();
  return [...value].length <= MAX_NICKNAME && !/\p{Cc}/u.test(value) ? value : "";
}

export function renderHeader(onLang, onNick = null) {
  const header = clear(document.getElementById("header"));
  const select = el(
    "select",
    { id: "lang", "aria-label": t("web.ui.language"), onchange: (e) => { setLang(e.target.value); onLang(e.target.value); } },
    el("option", { value: "en", selected: currentLang() === "en" }, "English"),
    el("option", { value: "zh-Hant", selected: currentLang() === "zh-Hant" }, "繁體中文"),
  );
  const nick = el("input", {
    id: "nick",
    value: nickname(),
    maxlength: MAX_NICKNAME,
    placeholder: t("web.ui.nickname"),
    "aria-label": t("web.ui.nickname"),
    onchange: (e) => {
      writeText("tt.nick", e.target.value.trim());
      if (onNick && e.target.value.trim()) onNick(e.target.value.trim());
    },
  });
  header.append(el("a", { href: "/", class: "brand" }, "tabletrek"), el("span", { class: "spacer" }), nick, select);
  return nick;
}
