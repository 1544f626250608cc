// Mexican Train: dominoes drawn as SVG with pips (double-12 and double-9 sets), the station with the
// engine and every train laid out from it with its marker, your hand, and a per-round score sheet.
import { html } from "/static/js/ui.js";
import { choose, pickedKey, Choices } from "/static/js/pick.js";

// Pip positions in a unit square, per value; 10-12 use a 3×4 grid as double-12 sets do.
const C = [0.5, 0.5];
const TL = [0.22, 0.2], TR = [0.78, 0.2], ML = [0.22, 0.5], MR = [0.78, 0.5], BL = [0.22, 0.8], BR = [0.78, 0.8];
const TC = [0.5, 0.2], BC = [0.5, 0.8];
const col4 = (x) => [0.14, 0.38, 0.62, 0.86].map((y) => [x, y]);
const PIPS = [
  [], [C], [TL, BR], [TL, C, BR], [TL, TR, BL, BR], [TL, TR, C, BL, BR], [TL, TR, ML, MR, BL, BR],
  [TL, TR, ML, C, MR, BL, BR], [TL, TC, TR, ML, MR, BL, BC, BR], [TL, TC, TR, ML, C, MR, BL, BC, BR],
  [...col4(0.22), ...col4(0.78), [0.5, 0.38], [0.5, 0.62]],
  [...col4(0.22), ...col4(0.78), [0.5, 0.2], [0.5, 0.5], [0.5, 0.8]],
  [...col4(0.2), ...col4(0.5), ...col4(0.8)],
];
// Pips coloured by value, as in most double-12 sets: easier to match than counting twelve dots.
const PIP_COLORS = ["#000", "#0277bd", "#2e7d32", "#c62828", "#4e342e", "#6a1b9a", "#00695c", "#ad1457", "#283593", "#ef6c00", "#37474f", "#558b2f", "#5d4037"];

function half(value, x, size) {
  if (!(value >= 0 && value < PIPS.length)) return html`<text x=${x + size / 2} y=${size * 0.62} font-size=${size * 0.45} text-anchor="middle">${value}</text>`;
  const r = value > 9 ? size * 0.07 : size * 0.085;
  return PIPS[value].map(([px, py]) => html`<circle cx=${x + px * size} cy=${py * size} r=${r} fill=${PIP_COLORS[value]} />`);
}

/** One domino as SVG: two halves of pips, a line between; the numbers as its accessible name. */
/** A tile's name whichever way round it lies (a train may lay it turned): what FLIP matches on. */
function tileKey(tile) {
  return `tile-${Math.min(tile[0], tile[1])}-${Math.max(tile[0], tile[1])}`;
}

export function Domino({ tile, cls = "", vertical = false }) {
  const [a, b] = tile;
  const s = 30;
  return html`<svg viewBox=${`0 0 ${2 * s} ${s}`} class=${`domino${vertical ? " vertical" : ""} ${cls}`} role="img" aria-label=${`${a}–${b}`}>
    <rect x="0.75" y="0.75" width=${2 * s - 1.5} height=${s - 1.5} rx="4" fill="#fffdf6" stroke="#333" stroke-width="1.5"/>
    <line x1=${s} y1="4" x2=${s} y2=${s - 4} stroke="#333" stroke-width="1.2"/>
    ${half(a, 0, s)}${half(b, s, s)}
  </svg>`;
}

function Marker({ t }) {
  return html`<svg viewBox="0 0 28 20" class="train-marker" role="img" aria-label=${t("mexican_train.ui.public")}>
    <rect x="2" y="5" width="16" height="9" rx="2" fill="#ef6c00"/><rect x="14" y="1" width="8" height="13" rx="1" fill="#bf360c"/>
    <circle cx="6" cy="16" r="3" fill="#333"/><circle cx="17" cy="16" r="3" fill="#333"/><path d="M22 6h4" stroke="#333" stroke-width="2"/>
  </svg>`;
}

/** "play 4-5 p4" -> ["4-5", "p4"]; other moves -> null. */
export function parsePlay(text) {
  const words = text.split(" ");
  return words[0] === "play" && words.length >= 3 ? [words[1], words[2]] : null;
}

function trainLabel(ctx, train) {
  if (train.owner === null || train.owner === undefined) return ctx.t("mexican_train.ui.mexican");
  return ctx.names[train.owner] ?? train.name;
}

function tileTip(t, tile) {
  const [a, b] = tile;
  return t(a === b ? "mexican_train.piece.double" : "mexican_train.piece.tile", { a, b, points: a + b });
}

export function Board(ctx) {
  const { view, t, prev } = ctx;
  const prevTrain = (name) => (prev && prev.trains ? prev.trains.find((tr) => tr.name === name) : null);
  const engine = view.engine_tile.split("-").map(Number);
  // htm drops whitespace that holds a line break, so separators are written ${" · "} on one line
  return html`
    <p class="mt-summary">
      ${t("mexican_train.ui.round", { round: view.round, rounds: view.rounds })} · ${t("mexican_train.ui.engine", { engine: view.engine })}${" · "}<span id="boneyard" data-tip=${t("mexican_train.piece.boneyard")} tabindex="0">${t("mexican_train.ui.boneyard", { count: view.boneyard })}</span>
    </p>
    <section class="mt-station" id="station">
      <div class="engine" data-tip=${t("mexican_train.piece.engine", { n: view.engine })} tabindex="0"><${Domino} tile=${engine} cls="engine-tile" /></div>
      <div class="train-lines">
      ${view.trains.map((train) => {
        const old = prevTrain(train.name);
        const grew = old && old.tiles.length < train.tiles.length;
        const owner = train.owner;
        const color = owner === null || owner === undefined ? "#ef6c00" : `var(--seat-${owner})`;
        return html`<div key=${train.name} class=${`train${owner === ctx.you && ctx.you !== null ? " mine" : ""}`} data-train=${train.name} style=${`--train:${color}`}>
          <div class="train-head">
            <strong>${trainLabel(ctx, train)}</strong>
            ${train.marker ? html`<span class="badge marker" data-tip=${t("mexican_train.piece.marker")} tabindex="0"><${Marker} t=${t} /> ${t("mexican_train.ui.public")}</span>` : null}
            ${train.open_double ? html`<span class="badge double" data-tip=${t("mexican_train.piece.open_double")} tabindex="0">${t("mexican_train.ui.open_double")}</span>` : null}
            ${!train.started ? html`<span class="muted">${t("mexican_train.ui.not_started")}</span>` : null}
            <span class="end" aria-label=${t("mexican_train.page.mt_open_end", { n: train.end })}>→ ${train.end}</span>
          </div>
          <div class="train-tiles">
            ${train.tiles.map((tile, i) => html`<span key=${i} data-flip=${tileKey(tile)} class=${`laid${grew && i === train.tiles.length - 1 ? " changed last-move" : ""}`} data-tip=${tileTip(t, tile)}><${Domino} tile=${tile} /></span>`)}
          </div>
        </div>`;
      })}
      </div>
    </section>
    <table class="counts" id="mt-counts">
      <thead><tr><th scope="col">${t("mexican_train.ui.players")}</th><th scope="col">${t("mexican_train.ui.hand_count")}</th><th scope="col">${t("mexican_train.ui.total")}</th></tr></thead>
      <tbody>${view.hand_counts.map((count, seat) => html`<tr class=${seat === view.to_act ? "acting" : ""}><td><span class="swatch" style=${`background:var(--seat-${seat})`}></span> ${ctx.names[seat]}</td><td>${count}</td><td>${view.totals[seat]}</td></tr>`)}</tbody>
    </table>
    ${view.hand ? html`<${Hand} ctx=${ctx} />` : null}`;
}

function Hand({ ctx }) {
  const { view, t, legal } = ctx;
  const byTile = new Map();
  for (const move of legal) {
    const play = parsePlay(move.text);
    if (!play) continue;
    if (!byTile.has(play[0])) byTile.set(play[0], []);
    byTile.get(play[0]).push(move);
  }
  const open = pickedKey(ctx);
  const points = view.hand.reduce((sum, [a, b]) => sum + a + b, 0);
  return html`<section class="panel">
    <h2>${ctx.live ? t("mexican_train.ui.your_hand", { count: view.hand.length, points }) : t("mexican_train.page.hand_of_tiles", { player: ctx.names[view.seat] ?? "", count: view.hand.length, points })}</h2>
    <div class="hand" id="hand">
      ${view.hand.map((tile) => {
        const name = `${tile[0]}-${tile[1]}`;
        const moves = byTile.get(name) || byTile.get(`${tile[1]}-${tile[0]}`) || [];
        return html`<button key=${name} class=${`tile-button${moves.length ? " playable" : ""}`} data-tile=${name} data-flip=${tileKey(tile)} data-tip=${tileTip(t, tile)} disabled=${!moves.length} aria-label=${name} onClick=${() => choose(ctx, name, moves)}>
          <${Domino} tile=${tile} />
        </button>`;
      })}
    </div>
    <${Choices} ctx=${ctx} id="tile-choices" moves=${open ? byTile.get(open) || byTile.get(open.split("-").reverse().join("-")) : null} title=${open || ""} />
  </section>`;
}

/** Points per round (lower is better) and the match total. */
export function ScoreSheet(ctx) {
  const { view, t } = ctx;
  const result = ctx.result || {};
  const rounds = view.round_scores || [];
  return html`<div class="scroll" tabindex="0"><table class="counts score-sheet" id="score-sheet">
    <thead><tr><th scope="col">${t("web.table.col_player")}</th>${rounds.map((_, i) => html`<th scope="col">${t("mexican_train.page.col_round", { n: i + 1 })}</th>`)}<th scope="col">${t("mexican_train.ui.total")}</th></tr></thead>
    <tbody>${ctx.names.map((name, seat) => html`<tr class=${(result.winners || []).includes(seat) ? "winner" : ""}>
      <td>${name}</td>${rounds.map((row) => html`<td>${Array.isArray(row) ? row[seat] : row && row.scores ? row.scores[seat] : "—"}</td>`)}<td><strong>${view.totals[seat]}</strong></td>
    </tr>`)}</tbody>
  </table></div>`;
}
