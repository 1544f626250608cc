// Double Crossing: the track as SVG with every token, your rack of cars, cash, contracts, cards,
// and the Stop-card reaction prompt when another player's turn may be stopped.
import { el, clear, svg } from "../js/dom.js";

const COLORS = ["#d32f2f", "#1976d2", "#388e3c", "#f9a825", "#7b1fa2", "#00838f"];
const KIND_FILL = {
  central: "#ffe082", corner: "#ffe082", trade: "#e3f2fd", yard: "#e8f5e9", stop: "#ffcdd2", "pay-taxes": "#fce4ec",
  derail: "#ffccbc", "double-cross": "#f3e5f5", "crew-cards": "#fff8e1",
};
const CARS = ["passenger", "box", "hopper", "tank"];
let board = null;

async function loadBoard() {
  if (!board) board = await (await fetch("/api/games/double-crossing/data/board")).json();
  return board;
}

function money(n) {
  return `$${Number(n).toLocaleString("en-US")}`;
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

function drawBoard(host, ctx, spaces, choices) {
  const { view, t } = ctx;
  const bySpace = spaceMoves(ctx.legal);
  const count = spaces.length;
  const side = Math.floor(count / 4);
  const size = 10;
  const span = (side + 1) * size;
  const root = svg("svg", { viewBox: `-1 -1 ${span + 2} ${span + 2}`, class: "dc-board", id: "board-svg", role: "img", "aria-label": t("double_crossing.title") });
  spaces.forEach((space, i) => {
    const [cx, cy] = cell(i, count);
    const name = t(`double_crossing.space.${space.kind}`);
    const detail = space.company ? t(`double_crossing.company.${space.company}`) : space.car ? t(`double_crossing.car.${space.car}`) : space.amount ? money(space.amount) : "";
    const moves = bySpace.get(i) || [];
    const pick = () => {
      if (moves.length === 1) {
        ctx.act(moves[0].text);
        return;
      }
      clear(choices);
      for (const move of moves) choices.append(el("button", { class: "move choice", "data-action": move.text, onclick: () => ctx.act(move.text) }, move.label || move.text));
    };
    root.append(
      svg(
        "g",
        { "data-space": i, class: moves.length ? "space target" : "space", onclick: moves.length ? pick : null },
        svg("title", {}, `${i}: ${name}${detail ? ` — ${detail}` : ""}`),
        svg("rect", { x: cx * size, y: cy * size, width: size, height: size, fill: KIND_FILL[space.kind] || "#fafafa", stroke: moves.length ? "#1f6f8b" : "#888", "stroke-width": moves.length ? 0.8 : 0.2 }),
        svg("text", { x: cx * size + size / 2, y: cy * size + 4, "font-size": 2.2, "text-anchor": "middle" }, t(`double_crossing.abbr.${space.kind}`)),
        svg("text", { x: cx * size + size / 2, y: cy * size + 9, "font-size": 1.8, "text-anchor": "middle", fill: "#666" }, String(i)),
      ),
    );
  });
  const waiting = [];
  view.positions.forEach((pos, seat) => {
    if (pos < 0) {
      waiting.push(seat);
      return;
    }
    const [cx, cy] = cell(pos, count);
    const dx = (seat % 2) * 4 + 3;
    const dy = Math.floor(seat / 2) * 2.2 + 5.2;
    root.append(svg("circle", { cx: cx * size + dx, cy: cy * size + dy, r: 1.5, fill: COLORS[seat % COLORS.length], stroke: "#000", "stroke-width": 0.3, class: "token", "data-seat": seat }, svg("title", {}, ctx.names[seat])));
  });
  const mid = span / 2;
  root.append(svg("text", { x: mid, y: mid - 6, "font-size": 4, "text-anchor": "middle", "font-weight": 700 }, t("double_crossing.title")));
  root.append(svg("text", { x: mid, y: mid, "font-size": 2.6, "text-anchor": "middle" }, `${t("double_crossing.ui.col.player")}: ${ctx.names[view.turn_seat] ?? ""}`));
  waiting.forEach((seat, n) => {
    root.append(svg("circle", { cx: mid - 6 + n * 4, cy: mid + 6, r: 1.5, fill: COLORS[seat % COLORS.length], stroke: "#000", "stroke-width": 0.3, class: "token", "data-seat": seat }, svg("title", {}, `${ctx.names[seat]}: ${t("double_crossing.ui.start")}`)));
  });
  host.append(root);
}

export function render(root, ctx) {
  clear(root);
  const { view, t } = ctx;
  const prompt = stopPrompt(ctx);
  if (prompt) root.append(prompt);
  const boardBox = el("div", { class: "dc-board-box" });
  const choices = el("div", { class: "choices", id: "space-choices" });
  root.append(boardBox, choices);
  loadBoard().then((data) => drawBoard(boardBox, ctx, data.spaces, choices));
  if (view.pending) {
    const who = ctx.names[view.pending.seat] ?? "";
    const what = t(`double_crossing.phase.${view.pending.k}`);
    root.append(el("p", { class: "dc-pending", id: "pending" }, t("double_crossing.ui.pending", { player: who, what })));
  }
  root.append(playersTable(ctx));
  if (view.hand) root.append(mine(ctx));
  root.append(
    el("p", { class: "muted" },
      t("double_crossing.ui.yard", { cars: CARS.map((c) => `${t(`double_crossing.car.${c}`)} ${view.yard[c]}`).join(", "), depot: money(view.depot), bank: money(view.bank) }),
      " · ",
      t("double_crossing.ui.piles", { draw: view.draw_pile, discard: Object.values(view.discard).reduce((a, b) => a + b, 0) }),
    ),
  );
}

function stopPrompt(ctx) {
  const { view, t } = ctx;
  const stop = ctx.legal.find((m) => m.text === "stop");
  if (!view.pending || view.pending.k !== "window" || !stop) return null;
  const pass = ctx.legal.find((m) => m.text === "pass");
  const target = ctx.names[view.pending.target] ?? "";
  return el(
    "section",
    { class: "panel dc-stop", id: "stop-prompt", role: "alertdialog" },
    el("h2", {}, t("web.ui.stop_prompt")),
    el("p", {}, t("web.ui.stop_question", { player: target })),
    el("div", { class: "move-list" },
      el("button", { id: "play-stop", onclick: () => ctx.act(stop.text) }, stop.label || stop.text),
      pass ? el("button", { id: "pass-stop", class: "secondary", onclick: () => ctx.act(pass.text) }, pass.label || pass.text) : null,
    ),
  );
}

function contractText(ctx, id) {
  const info = ctx.view.contract_info.find((c) => c.id === id);
  const name = ctx.t(`double_crossing.contract.${id}`);
  if (!info) return name;
  const cars = CARS.filter((c) => info.cars[c]).map((c) => `${info.cars[c]}× ${ctx.t(`double_crossing.car.${c}`)}`).join(", ");
  return ctx.t("double_crossing.ui.contract", { name, cars, price: money(info.price) });
}

function playersTable(ctx) {
  const { view, t } = ctx;
  const rows = view.cash.map((cash, seat) =>
    el(
      "tr",
      { class: seat === view.to_act ? "acting" : "" },
      el("td", {}, el("span", { class: "swatch", style: `background:${COLORS[seat % COLORS.length]}` }), " ", ctx.names[seat]),
      el("td", {}, money(cash)),
      el("td", {}, CARS.filter((c) => view.cars[seat][c]).map((c) => `${view.cars[seat][c]}× ${t(`double_crossing.car.${c}`)}`).join(", ") || "—"),
      el("td", {}, view.contracts[seat].length ? view.contracts[seat].map((id) => t(`double_crossing.contract.${id}`)).join(", ") : "—"),
      el("td", {}, String(view.hand_counts[seat])),
    ),
  );
  const col = (k) => el("th", {}, t(`double_crossing.ui.col.${k}`));
  return el("div", { class: "scroll" }, el("table", { class: "counts", id: "players" }, el("thead", {}, el("tr", {}, col("player"), col("cash"), col("cars"), col("contracts"), col("cards"))), el("tbody", {}, rows)));
}

function mine(ctx) {
  const { view, t } = ctx;
  const seat = view.seat;
  const cards = Object.entries(view.hand).filter(([, n]) => n > 0).map(([kind, n]) => el("span", { class: "card dc-card", "data-card": kind }, `${t(`double_crossing.card.${kind}`)} × ${n}`));
  const rack = CARS.map((c) => el("li", { "data-car": c }, `${t(`double_crossing.car.${c}`)}: ${view.cars[seat][c]}`));
  const contracts = view.contracts[seat].map((id) => el("li", {}, contractText(ctx, id)));
  return el(
    "section",
    { class: "panel", id: "my-area" },
    el("h2", {}, `${ctx.names[seat]} · ${money(view.cash[seat])}`),
    el("div", { class: "hand", id: "hand" }, cards.length ? cards : el("span", { class: "muted" }, "—")),
    el("h3", {}, t("web.ui.rack")),
    el("ul", { class: "rack", id: "rack" }, rack),
    el("h3", {}, t("double_crossing.ui.col.contracts")),
    el("ul", { id: "contracts" }, contracts.length ? contracts : el("li", { class: "muted" }, "—")),
  );
}
