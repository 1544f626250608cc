// Double Crossing: the board as a loop track of spaces with icons and a legend, players' engines on
// it, cars as coloured wagons (each its own shape too), contracts as cards, the Stop-card prompt,
// and automatic answers (reactions the player chose to auto-pass, turn ends with no choice left).
import { html, money, seatColor } from "/static/js/ui.js";
import { choose, pickedKey, Choices } from "/static/js/pick.js";

const CARS = ["passenger", "box", "hopper", "tank"];
const CAR_FILL = { passenger: "#1565c0", box: "#8d4e2a", hopper: "#546e7a", tank: "#f9a825" };
const KIND_FILL = {
  central: "#ffd54f", corner: "#ffe082", trade: "#e3f2fd", yard: "#e8f5e9", stop: "#ffcdd2", "pay-taxes": "#fce4ec",
  derail: "#ffccbc", "double-cross": "#f3e5f5", "crew-cards": "#fff8e1", "govt-contract": "#ede7f6", "train-shop": "#e0f2f1",
  "roll-again": "#f1f8e9", roundhouse: "#efebe9", "control-tower": "#e1f5fe", depot: "#f5f5f5", "dissatisfied-customer": "#fbe9e7", connections: "#e8eaf6",
};
/** A Stop window is answered after this long whether or not the player holds a Stop card: no tell. */
export const AUTO_PASS_DELAY = 1200;
const AUTO_END_DELAY = 700;

let board = null;
let loading = null;

function loadBoard(redraw) {
  if (board || loading) return board;
  loading = fetch("/api/games/double-crossing/data/board").then((r) => r.json()).then((data) => {
    board = data;
    redraw();
  });
  return null;
}

/** A wagon: each car type has its own body shape as well as its colour. */
export function Wagon({ car, t, size = 1, count = null }) {
  const fill = CAR_FILL[car];
  let body;
  if (car === "passenger") body = html`<rect x="2" y="3" width="28" height="11" rx="2" fill=${fill}/><rect x="5" y="5.5" width="5" height="4" fill="#fff"/><rect x="13.5" y="5.5" width="5" height="4" fill="#fff"/><rect x="22" y="5.5" width="5" height="4" fill="#fff"/>`;
  else if (car === "box") body = html`<rect x="2" y="2" width="28" height="12" fill=${fill}/><rect x="12" y="4" width="8" height="10" fill="none" stroke="#fff" stroke-width="1.2"/>`;
  else if (car === "hopper") body = html`<path d="M2 3h28l-5 11H7z" fill=${fill}/><path d="M9 3v8M16 3v11M23 3v8" stroke="#fff" stroke-width="1"/>`;
  else body = html`<rect x="2" y="4" width="28" height="10" rx="5" fill=${fill}/><rect x="14" y="1.5" width="4" height="3" fill=${fill}/>`;
  const name = t(`double_crossing.car.${car}`);
  return html`<svg viewBox="0 0 32 19" class="wagon" style=${`width:${2.4 * size}rem`} role="img" aria-label=${count === null ? name : `${name} × ${count}`}>
    ${body}<circle cx="8" cy="16" r="2.5" fill="#222"/><circle cx="24" cy="16" r="2.5" fill="#222"/>
  </svg>`;
}

function icon(kind, space, x, y) {
  // every icon fits a 6×4 box centred at (x, y)
  switch (kind) {
    case "central":
    case "corner":
      return html`<path d=${`M${x - 3} ${y + 2}v-2.5l3-2 3 2v2.5z`} fill=${kind === "central" ? "#b71c1c" : "#6d4c41"}/>`;
    case "trade":
      return html`<g><circle cx=${x} cy=${y} r="2.2" fill="#1565c0"/><text x=${x} y=${y + 0.9} font-size="2.6" text-anchor="middle" fill="#fff">$</text></g>`;
    case "yard":
      return html`<g><rect x=${x - 2.8} y=${y - 1.5} width="5.6" height="2.6" rx="0.5" fill=${CAR_FILL[space.car] || "#555"}/><circle cx=${x - 1.6} cy=${y + 1.5} r="0.7" fill="#222"/><circle cx=${x + 1.6} cy=${y + 1.5} r="0.7" fill="#222"/></g>`;
    case "stop":
      return html`<polygon points=${[[-1, -2.4], [1, -2.4], [2.4, -1], [2.4, 1], [1, 2.4], [-1, 2.4], [-2.4, 1], [-2.4, -1]].map(([a, b]) => `${x + a},${y + b}`).join(" ")} fill="#c62828"/>`;
    case "pay-taxes":
      return html`<g><circle cx=${x} cy=${y} r="2.2" fill="#ad1457"/><text x=${x} y=${y + 0.9} font-size="2.4" text-anchor="middle" fill="#fff">−</text></g>`;
    case "crew-cards":
      return html`<g><rect x=${x - 2.5} y=${y - 2} width="3" height="4" fill="#fff" stroke="#ef6c00" stroke-width="0.5"/><rect x=${x - 0.5} y=${y - 1.5} width="3" height="4" fill="#ffe0b2" stroke="#ef6c00" stroke-width="0.5"/></g>`;
    case "derail":
      return html`<path d=${`M${x - 3} ${y + 1.5}l1.5-3 1.5 3 1.5-3 1.5 3`} fill="none" stroke="#d84315" stroke-width="0.7"/>`;
    case "double-cross":
      return html`<path d=${`M${x - 2.5} ${y - 2}l5 4M${x + 2.5} ${y - 2}l-5 4`} stroke="#6a1b9a" stroke-width="0.9"/>`;
    case "govt-contract":
      return html`<g><rect x=${x - 2} y=${y - 2.3} width="4" height="4.6" fill="#fff" stroke="#4527a0" stroke-width="0.5"/><path d=${`M${x - 1.2} ${y - 1}h2.4M${x - 1.2} ${y}h2.4M${x - 1.2} ${y + 1}h2.4`} stroke="#4527a0" stroke-width="0.35"/></g>`;
    case "train-shop":
      return html`<circle cx=${x} cy=${y} r="1.9" fill="none" stroke="#00695c" stroke-width="1" stroke-dasharray="0.8 0.6"/>`;
    case "roll-again":
      return html`<g><rect x=${x - 2} y=${y - 2} width="4" height="4" rx="0.7" fill="#fff" stroke="#33691e" stroke-width="0.5"/><circle cx=${x - 0.9} cy=${y - 0.9} r="0.45"/><circle cx=${x + 0.9} cy=${y + 0.9} r="0.45"/></g>`;
    case "roundhouse":
      return html`<path d=${`M${x - 2.6} ${y + 1.8}a2.6 2.6 0 0 1 5.2 0z`} fill="#6d4c41"/>`;
    case "control-tower":
      return html`<g><rect x=${x - 0.7} y=${y - 1} width="1.4" height="3.2" fill="#0277bd"/><rect x=${x - 1.8} y=${y - 2.4} width="3.6" height="1.6" fill="#0277bd"/></g>`;
    case "depot":
      return html`<g><rect x=${x - 2.5} y=${y - 1.5} width="5" height="3.5" fill="#757575"/><rect x=${x - 0.7} y=${y} width="1.4" height="2" fill="#fff"/></g>`;
    case "dissatisfied-customer":
      return html`<g><circle cx=${x} cy=${y} r="2.1" fill="#ffab91"/><path d=${`M${x - 1} ${y + 1.1}q1-0.9 2 0`} fill="none" stroke="#000" stroke-width="0.35"/></g>`;
    case "connections":
      return html`<g fill="none" stroke="#283593" stroke-width="0.6"><circle cx=${x - 1} cy=${y} r="1.4"/><circle cx=${x + 1} cy=${y} r="1.4"/></g>`;
    default:
      return null;
  }
}

function cell(i, count) {
  const side = Math.floor(count / 4);
  const s = Math.floor(i / side);
  const k = i % side;
  if (s === 0) return [k, 0];
  if (s === 1) return [side, k];
  if (s === 2) return [side - k, side];
  return [0, side - k];
}

/** Legal moves that name a space ("go 12", "move p2 30"), by space number. */
function spaceMoves(legal) {
  const bySpace = new Map();
  for (const move of legal) {
    const words = move.text.split(" ");
    const space = words[0] === "go" ? words[1] : words[0] === "move" ? words[2] : null;
    if (space === null || space === undefined) continue;
    if (!bySpace.has(Number(space))) bySpace.set(Number(space), []);
    bySpace.get(Number(space)).push(move);
  }
  return bySpace;
}

function spaceName(t, space) {
  const name = t(`double_crossing.space.${space.kind}`);
  const detail = space.company ? t(`double_crossing.company.${space.company}`) : space.car ? t(`double_crossing.car.${space.car}`) : space.amount ? money(space.amount) : "";
  return detail ? t("double_crossing.page.space_detail", { name, detail }) : name;
}

function Track({ ctx, spaces }) {
  const { view, t, prev } = ctx;
  const bySpace = spaceMoves(ctx.legal);
  const count = spaces.length;
  const side = Math.floor(count / 4);
  const size = 10;
  const span = (side + 1) * size;
  const open = pickedKey(ctx);
  const tokens = [];
  const waiting = [];
  view.positions.forEach((pos, seat) => {
    if (pos < 0) {
      waiting.push(seat);
      return;
    }
    const [cx, cy] = cell(pos, count);
    const moved = prev && prev.positions && prev.positions[seat] !== pos;
    const dx = (seat % 3) * 3 + 2;
    const dy = Math.floor(seat / 3) * 3 + 6.5;
    tokens.push(html`<g key=${`tok-${seat}`} class=${`token${moved ? " changed last-move" : ""}`} data-seat=${seat} style=${`--x:${cx * size + dx}px;--y:${cy * size + dy}px`} transform=${`translate(${cx * size + dx} ${cy * size + dy})`}>
      <title>${ctx.names[seat]}</title>
      <path d="M-1.6 1.2v-2.4h2.2l1 1v1.4z" fill=${seatColor(seat)} stroke="#000" stroke-width="0.25"/>
      <circle cx="-0.8" cy="1.4" r="0.5" fill="#222"/><circle cx="1" cy="1.4" r="0.5" fill="#222"/>
    </g>`);
  });
  const mid = span / 2;
  return html`
    <svg viewBox=${`-1 -1 ${span + 2} ${span + 2}`} class="dc-board" id="board-svg" role="group" aria-label=${t("double_crossing.page.dc_board")}>
      <rect x=${size * 0.5} y=${size * 0.5} width=${side * size} height=${side * size} rx="6" fill="none" stroke="#8d6e63" stroke-width="1.4" stroke-dasharray="1 1"/>
      ${spaces.map((space, i) => {
        const [cx, cy] = cell(i, count);
        const moves = bySpace.get(i) || [];
        const tip = t("double_crossing.page.space_tip", { n: i, name: spaceName(t, space), about: t(`double_crossing.piece.space.${space.kind}`) });
        const station = space.kind === "central" || space.kind === "corner";
        const act = moves.length ? () => choose(ctx, `space-${i}`, moves) : null;
        return html`<g key=${i} data-space=${i} class=${moves.length ? "space target" : "space"} data-tip=${tip}
            tabindex=${moves.length ? 0 : null} role=${moves.length ? "button" : null} aria-label=${moves.length ? tip : null}
            onClick=${act} onKeyDown=${act ? (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), act()) : null}>
          <title>${tip}</title>
          <rect x=${cx * size + 0.3} y=${cy * size + 0.3} width=${size - 0.6} height=${size - 0.6} rx="1.5" fill=${KIND_FILL[space.kind] || "#fafafa"} stroke=${moves.length ? "#0d47a1" : station ? "#6d4c41" : "#9e9e9e"} stroke-width=${moves.length ? 0.9 : station ? 0.6 : 0.25}/>
          ${icon(space.kind, space, cx * size + size / 2, cy * size + 3.4)}
          <text x=${cx * size + 1.2} y=${cy * size + 9} font-size="2" fill="#555">${i}</text>
        </g>`;
      })}
      ${tokens}
      <text x=${mid} y=${mid - 8} font-size="4.2" text-anchor="middle" font-weight="700" fill="#4e342e">${t("double_crossing.title")}</text>
      <text x=${mid} y=${mid - 2} font-size="2.8" text-anchor="middle" fill=${seatColor(view.turn_seat)}>${t("double_crossing.page.dc_turn_of", { player: ctx.names[view.turn_seat] ?? "" })}</text>
      ${waiting.length ? html`<text x=${mid} y=${mid + 4} font-size="2.2" text-anchor="middle">${t("double_crossing.ui.start")}</text>` : null}
      ${waiting.map((seat, n) => html`<g key=${`wait-${seat}`} class="token" data-seat=${seat} transform=${`translate(${mid - (waiting.length - 1) * 2.5 + n * 5} ${mid + 8})`}>
        <title>${t("web.ui.labelled", { label: ctx.names[seat], text: t("double_crossing.ui.start") })}</title>
        <path d="M-1.6 1.2v-2.4h2.2l1 1v1.4z" fill=${seatColor(seat)} stroke="#000" stroke-width="0.25"/>
      </g>`)}
    </svg>
    <${Choices} ctx=${ctx} id="space-choices" moves=${open && open.startsWith("space-") ? bySpace.get(Number(open.slice(6))) : null} />`;
}

function Legend({ ctx, spaces }) {
  const { t } = ctx;
  const kinds = [...new Set(spaces.map((s) => s.kind))];
  return html`<details class="dc-legend" id="dc-legend">
    <summary>${t("double_crossing.page.legend")}</summary>
    <ul>${kinds.map((kind) => html`<li key=${kind} data-tip=${t(`double_crossing.piece.space.${kind}`)} tabindex="0">
      <svg viewBox="0 0 10 8" class="legend-icon" aria-hidden="true"><rect x="0.3" y="0.3" width="9.4" height="7.4" rx="1.2" fill=${KIND_FILL[kind] || "#fafafa"} stroke="#9e9e9e" stroke-width="0.3"/>${icon(kind, spaces.find((s) => s.kind === kind), 5, 4)}</svg>
      <span>${t(`double_crossing.space.${kind}`)}</span>
    </li>`)}</ul>
  </details>`;
}

/** A contract as a card: the company, the wagons it needs, its price. */
export function ContractCard({ ctx, id, cls = "" }) {
  const { t } = ctx;
  const info = (ctx.view.contract_info || []).find((c) => c.id === id);
  const name = t(`double_crossing.contract.${id}`);
  return html`<div class=${`contract-card ${cls}`} data-contract=${id} data-tip=${t("web.ui.labelled", { label: name, text: t("double_crossing.piece.contract") })} tabindex="0">
    <strong>${name}</strong>
    ${info ? html`<span class="wagons">${CARS.filter((c) => info.cars[c]).map((c) => html`<span class="wagon-count"><${Wagon} car=${c} t=${t} count=${info.cars[c]} />×${info.cars[c]}</span>`)}</span>
      <span class="price">${money(info.price)}</span>` : null}
  </div>`;
}

export function Board(ctx) {
  const { view, t } = ctx;
  const spaces = loadBoard(ctx.redraw);
  // htm drops whitespace that holds a line break, so separators are written ${" · "} on one line
  return html`
    ${stopPrompt(ctx)}
    ${view.pending ? html`<p class="dc-pending" id="pending">${t("double_crossing.ui.pending", { player: ctx.names[view.pending.seat] ?? "", what: t(`double_crossing.phase.${view.pending.k}`) })}</p>` : null}
    <div class="dc-board-box">${spaces ? html`<${Track} ctx=${ctx} spaces=${spaces.spaces} /><${Legend} ctx=${ctx} spaces=${spaces.spaces} />` : html`<p class="muted">…</p>`}</div>
    <${Players} ctx=${ctx} />
    ${view.hand ? html`<${Mine} ctx=${ctx} />` : null}
    <p class="muted">
      ${t("double_crossing.page.dc_yards")} ${CARS.map((c) => html`<span class="wagon-count" key=${c}><${Wagon} car=${c} t=${t} count=${view.yard[c]} />×${view.yard[c]}</span>`)}${" · "}${t("double_crossing.page.dc_depot", { depot: money(view.depot), bank: money(view.bank) })}${" · "}${t("double_crossing.ui.piles", { draw: view.draw_pile, discard: Object.values(view.discard).reduce((a, b) => a + b, 0) })}
    </p>`;
}

function stopPrompt(ctx) {
  const { view, t } = ctx;
  const stop = ctx.legal.find((m) => m.text === "stop");
  if (!view.pending || view.pending.k !== "window" || !stop) return null;
  const pass = ctx.legal.find((m) => m.text === "pass");
  return html`<section class="panel dc-stop" id="stop-prompt" role="alertdialog" aria-labelledby="stop-title">
    <h2 id="stop-title">${t("double_crossing.page.stop_prompt")}</h2>
    <p>${t("double_crossing.page.stop_question", { player: ctx.names[view.pending.target] ?? "" })}</p>
    <div class="move-list">
      <button id="play-stop" onClick=${() => ctx.act(stop.text)}>${stop.label || stop.text}</button>
      ${pass ? html`<button id="pass-stop" class="secondary" onClick=${() => ctx.act(pass.text)}>${pass.label || pass.text}</button>` : null}
    </div>
  </section>`;
}

function Players({ ctx }) {
  const { view, t, prev } = ctx;
  const col = (k) => html`<th scope="col">${t(`double_crossing.ui.col.${k}`)}</th>`;
  return html`<div class="scroll" tabindex="0"><table class="counts" id="players">
    <thead><tr>${col("player")}${col("cash")}${col("cars")}${col("contracts")}${col("cards")}</tr></thead>
    <tbody>${view.cash.map((cash, seat) => html`<tr key=${seat} class=${seat === view.to_act ? "acting" : ""}>
      <td><span class="swatch" style=${`background:${seatColor(seat)}`}></span> ${ctx.names[seat]}</td>
      <td class=${prev && prev.cash && prev.cash[seat] !== cash ? "changed" : ""}>${money(cash)}</td>
      <td>${CARS.filter((c) => view.cars[seat][c]).map((c) => html`<span class="wagon-count"><${Wagon} car=${c} t=${t} size=${0.7} count=${view.cars[seat][c]} />×${view.cars[seat][c]}</span>`)}${CARS.some((c) => view.cars[seat][c]) ? null : "—"}</td>
      <td>${view.contracts[seat].length || "—"}</td>
      <td>${view.hand_counts[seat]}</td>
    </tr>`)}</tbody>
  </table></div>`;
}

function Mine({ ctx }) {
  const { view, t } = ctx;
  const seat = view.seat;
  const cards = Object.entries(view.hand).filter(([, n]) => n > 0);
  return html`<section class="panel" id="my-area">
    <h2><span class="swatch" style=${`background:${seatColor(seat)}`}></span> ${ctx.names[seat]} · ${money(view.cash[seat])}</h2>
    <div class="hand" id="hand">
      ${cards.length ? cards.map(([kind, n]) => html`<span key=${kind} class="card dc-card" data-card=${kind} data-tip=${t(`double_crossing.piece.card.${kind}`)} tabindex="0">${t(`double_crossing.card.${kind}`)} × ${n}</span>`) : html`<span class="muted">—</span>`}
    </div>
    <h3>${t("double_crossing.page.rack")}</h3>
    <div class="rack" id="rack">${CARS.map((c) => html`<span key=${c} class="wagon-count" data-car=${c}><${Wagon} car=${c} t=${t} count=${view.cars[seat][c]} />×${view.cars[seat][c]}</span>`)}</div>
    <h3>${t("double_crossing.ui.col.contracts")}</h3>
    <div class="contracts" id="contracts">${view.contracts[seat].length ? view.contracts[seat].map((id) => html`<${ContractCard} ctx=${ctx} id=${id} key=${id} />`) : html`<span class="muted">—</span>`}</div>
  </section>`;
}

/** What the page answers by itself: a Stop window after a fixed delay (only when the player asked for
 * it, and the same delay whether or not they hold a Stop card), and a turn end with nothing else to do. */
export function autoMove(ctx, prefs) {
  const { view, legal } = ctx;
  if (!view.pending || !legal.length) return null;
  if (view.pending.k === "window" && prefs.autoPass && legal.some((m) => m.text === "pass")) return { text: "pass", delay: prefs.autoDelay ?? AUTO_PASS_DELAY };
  if (prefs.autoEnd && legal.length === 1 && legal[0].text === "end") return { text: "end", delay: prefs.autoDelay ?? AUTO_END_DELAY };
  return null;
}

export function ScoreSheet(ctx) {
  const { view, t } = ctx;
  const result = ctx.result || {};
  return html`<div class="scroll" tabindex="0"><table class="counts score-sheet" id="score-sheet">
    <thead><tr><th scope="col">${t("web.table.col_player")}</th><th scope="col">${t("double_crossing.ui.col.cash")}</th><th scope="col">${t("double_crossing.ui.col.cars")}</th><th scope="col">${t("double_crossing.ui.col.contracts")}</th></tr></thead>
    <tbody>${view.cash.map((cash, seat) => html`<tr class=${(result.winners || []).includes(seat) ? "winner" : ""}>
      <td><span class="swatch" style=${`background:${seatColor(seat)}`}></span> ${ctx.names[seat]}</td>
      <td>${money(cash)}</td>
      <td>${CARS.filter((c) => view.cars[seat][c]).map((c) => html`<span class="wagon-count"><${Wagon} car=${c} t=${t} size=${0.7} count=${view.cars[seat][c]} />×${view.cars[seat][c]}</span>`)}</td>
      <td><div class="contracts">${view.contracts[seat].map((id) => html`<${ContractCard} ctx=${ctx} id=${id} cls="small" />`)}</div></td>
    </tr>`)}</tbody>
  </table></div>`;
}
