// The generic table UI: any game's view shown readably (its legal moves are the page's move buttons).
import { html } from "./ui.js";

function isPlain(value) {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function show(value, t) {
  if (value === null) return "—";
  if (typeof value === "boolean") return value ? t("web.ui.yes") : t("web.ui.no");
  return String(value);
}

/** A JSON value as nested lists: objects as term/value pairs, flat arrays inline. */
export function tree(value, t) {
  if (isPlain(value)) return html`<span>${show(value, t)}</span>`;
  if (Array.isArray(value)) {
    if (value.every(isPlain)) return html`<span class="flat">${value.length ? value.map((v) => show(v, t)).join(" · ") : "—"}</span>`;
    return html`<ol class="tree" start="0">${value.map((item) => html`<li>${tree(item, t)}</li>`)}</ol>`;
  }
  return html`<dl class="tree">${Object.entries(value).map(([name, item]) => html`<dt>${name.replace(/_/g, " ")}</dt><dd>${tree(item, t)}</dd>`)}</dl>`;
}

export function Board(ctx) {
  return html`<div class="generic-view">${tree(ctx.view, ctx.t)}</div>`;
}

/** Final result per seat from the game's result (any game). */
export function ScoreSheet(ctx) {
  const result = ctx.result || {};
  const scores = result.scores || result.returns || [];
  return html`<table class="counts score-sheet" id="score-sheet">
    <thead><tr><th scope="col">${ctx.t("web.table.col_player")}</th><th scope="col">${ctx.t("web.table.col_score")}</th></tr></thead>
    <tbody>${ctx.names.map((name, seat) => html`<tr class=${(result.winners || []).includes(seat) ? "winner" : ""}><td>${name}</td><td>${scores[seat] ?? "—"}</td></tr>`)}</tbody>
  </table>`;
}
