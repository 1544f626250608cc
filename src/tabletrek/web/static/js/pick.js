// A piece with several moves (a card that can go on either opponent, a tile for two trains):
// clicking it lists those moves right beside it. Remembered per screen, so a new move clears it.
import { html } from "./ui.js";
import { t } from "./i18n.js";

let picked = { key: null, seq: null };

export function pickedKey(ctx) {
  return picked.seq === screen(ctx) ? picked.key : null;
}

function screen(ctx) {
  return `${ctx.table.id}:${ctx.view.turn ?? ""}:${ctx.legal.length}:${ctx.legal.map((m) => m.text).join("|").length}`;
}

/** Play the only move at once, or show the choices for this piece. */
export function choose(ctx, key, moves) {
  if (moves.length === 1) {
    ctx.act(moves[0].text);
    return;
  }
  picked = { key, seq: screen(ctx) };
  ctx.redraw();
}

export function Choices({ ctx, id, moves, title }) {
  if (!moves || !moves.length) return html`<div class="choices" id=${id}></div>`;
  return html`<div class="choices" id=${id} role="group" aria-label=${title || ""}>
    ${title ? html`<span>${title}${t("core.text.colon")}</span>` : null}
    ${moves.map((move) => html`<button key=${move.text} class="move choice" data-action=${move.text} onClick=${() => ctx.act(move.text)}>${move.label || move.text}</button>`)}
  </div>`;
}
