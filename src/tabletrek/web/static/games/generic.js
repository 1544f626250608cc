// The generic table UI: any game's view shown readably, its legal moves as buttons, and a text box.
import { el, clear } from "../js/dom.js";

function isPlain(value) {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function show(value, t) {
  if (value === null) return "—";
  if (typeof value === "boolean") return value ? t("web.ui.yes") : t("web.ui.no");
  return String(value);
}

/** A JSON value as nested lists: objects as term/value pairs, flat arrays inline. */
export function tree(value, t, depth = 0) {
  if (isPlain(value)) return el("span", {}, show(value, t));
  if (Array.isArray(value)) {
    if (value.every(isPlain)) return el("span", { class: "flat" }, value.length ? value.map((v) => show(v, t)).join(" · ") : "—");
    return el("ol", { class: "tree", start: 0 }, value.map((item) => el("li", {}, tree(item, t, depth + 1))));
  }
  const list = el("dl", { class: "tree" });
  for (const [name, item] of Object.entries(value)) {
    list.append(el("dt", {}, name.replace(/_/g, " ")), el("dd", {}, tree(item, t, depth + 1)));
  }
  return list;
}

export function render(root, ctx) {
  clear(root);
  root.append(el("div", { class: "generic-view" }, tree(ctx.view, ctx.t)));
}

/** Legal moves as buttons (every game), plus a text box for moves that are typed (e.g. a clue). */
export function moves(ctx) {
  const box = el("section", { id: "moves", class: "panel moves" });
  if (ctx.you === null || ctx.over) return box;
  if (!ctx.legal.length) {
    box.append(el("p", { class: "muted" }, ctx.t("web.ui.waiting")));
    return box;
  }
  box.append(el("h2", {}, ctx.t("web.ui.moves")));
  const list = el("div", { class: "move-list" });
  for (const move of ctx.legal.slice(0, 400)) {
    list.append(el("button", { class: "move", "data-action": move.text, title: move.text, onclick: () => ctx.act(move.text) }, move.label || move.text));
  }
  box.append(list);
  const input = el("input", { id: "move-text", placeholder: ctx.t("web.ui.type_move"), "aria-label": ctx.t("web.ui.type_move") });
  const form = el("form", { class: "typed", onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) ctx.act(input.value.trim()); } }, input, el("button", { type: "submit" }, ctx.t("web.ui.send")));
  box.append(form);
  return box;
}
