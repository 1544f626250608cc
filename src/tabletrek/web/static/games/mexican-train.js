// Mexican Train: the station with the engine, every train with its marker, your hand, the counts.
import { el, clear } from "../js/dom.js";

export function domino(tile, extra = {}) {
  const [a, b] = tile;
  return el("span", { class: "domino", ...extra }, el("span", { class: "half" }, String(a)), el("span", { class: "half" }, String(b)));
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

export function render(root, ctx) {
  clear(root);
  const { view, t } = ctx;
  root.append(
    el(
      "p",
      { class: "mt-summary" },
      t("mexican_train.ui.round", { round: view.round, rounds: view.rounds }),
      " · ",
      t("mexican_train.ui.engine", { engine: view.engine }),
      " · ",
      el("span", { id: "boneyard" }, t("mexican_train.ui.boneyard", { count: view.boneyard })),
    ),
  );
  const station = el("section", { class: "mt-station", id: "station" });
  station.append(el("div", { class: "engine" }, domino(view.engine_tile.split("-").map(Number), { title: "engine" })));
  for (const train of view.trains) {
    const badges = [];
    if (train.marker) badges.push(el("span", { class: "badge marker", title: t("mexican_train.ui.public") }, "🚂 ", t("mexican_train.ui.public")));
    if (train.open_double) badges.push(el("span", { class: "badge double" }, t("mexican_train.ui.open_double")));
    if (!train.started) badges.push(el("span", { class: "muted" }, t("mexican_train.ui.not_started")));
    const tiles = el("div", { class: "train-tiles" }, train.tiles.map((tile) => domino(tile)));
    station.append(
      el(
        "div",
        { class: `train${train.owner === ctx.you && ctx.you !== null ? " mine" : ""}`, "data-train": train.name },
        el("div", { class: "train-head" }, el("strong", {}, trainLabel(ctx, train)), ` (${train.name}) → ${train.end} `, badges),
        tiles,
      ),
    );
  }
  root.append(station);
  const rows = view.hand_counts.map((count, seat) =>
    el("tr", { class: seat === view.to_act ? "acting" : "" }, el("td", {}, ctx.names[seat]), el("td", {}, String(count)), el("td", {}, String(view.totals[seat]))),
  );
  root.append(
    el(
      "table",
      { class: "counts" },
      el("thead", {}, el("tr", {}, el("th", {}, t("mexican_train.ui.players")), el("th", {}, t("mexican_train.ui.hand_count")), el("th", {}, t("mexican_train.ui.total")))),
      el("tbody", {}, rows),
    ),
  );
  if (view.hand) root.append(hand(ctx));
}

function hand(ctx) {
  const { view, t, legal } = ctx;
  const byTile = new Map();
  for (const move of legal) {
    const play = parsePlay(move.text);
    if (!play) continue;
    if (!byTile.has(play[0])) byTile.set(play[0], []);
    byTile.get(play[0]).push(move);
  }
  const choices = el("div", { class: "choices", id: "tile-choices" });
  const tiles = el("div", { class: "hand", id: "hand" });
  for (const tile of view.hand) {
    const name = `${tile[0]}-${tile[1]}`;
    const moves = byTile.get(name) || byTile.get(`${tile[1]}-${tile[0]}`) || [];
    const button = el(
      "button",
      {
        class: `tile-button${moves.length ? " playable" : ""}`,
        "data-tile": name,
        disabled: !moves.length,
        onclick: () => {
          if (moves.length === 1) {
            ctx.act(moves[0].text);
            return;
          }
          clear(choices);
          for (const move of moves) choices.append(el("button", { class: "move choice", "data-action": move.text, onclick: () => ctx.act(move.text) }, move.label || move.text));
        },
      },
      domino(tile),
    );
    tiles.append(button);
  }
  const points = view.hand.reduce((sum, [a, b]) => sum + a + b, 0);
  return el("section", { class: "panel" }, el("h2", {}, t("mexican_train.ui.your_hand", { count: view.hand.length, points })), tiles, choices);
}
