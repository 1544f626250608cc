// The page header: home link, language switch, nickname.
import { el, clear } from "./dom.js";
import { currentLang, setLang, t } from "./i18n.js";

export function nickname() {
  return localStorage.getItem("tt.nick") || "";
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
    maxlength: 32,
    placeholder: t("web.ui.nickname"),
    "aria-label": t("web.ui.nickname"),
    onchange: (e) => {
      localStorage.setItem("tt.nick", e.target.value.trim());
      if (onNick && e.target.value.trim()) onNick(e.target.value.trim());
    },
  });
  header.append(el("a", { href: "/", class: "brand" }, "tabletrek"), el("span", { class: "spacer" }), nick, select);
  return nick;
}
