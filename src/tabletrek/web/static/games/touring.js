// Touring: your hand as cards, each table's Go / speed / mileage piles, the draw and discard piles.
import { el, clear } from "../js/dom.js";

const MILES = ["1", "3", "15", "30"];

function cardName(t, slug) {
  return t(`touring.card.${slug}`);
}

function pileTop(t, pile) {
  return pile.length ? cardName(t, pile[pile.length - 1]) : t("touring.ui.empty");
}

function tableLabel(ctx, table) {
  const members = table.seats.map((s) => ctx.names[s]).join(", ");
  if (ctx.view.teams.length < ctx.view.players) return ctx.t("touring.ui.team_table", { team: ctx.t(`touring.team.${table.team + 1}`), members });
  return members;
}

/** The card slug an action text uses ("play puncture p2" -> "puncture"), or null for "pass". */
export function cardOf(text) {
  const words = text.split(" ");
  return words[0] === "play" || words[0] === "discard" ? words[1] : null;
}

export function render(root, ctx) {
  clear(root);
  const { view, t } = ctx;
  const tables = el("div", { class: "touring-tables" });
  for (const table of view.tables) {
    const mine = view.team !== null && table.team === view.team;
    const miles = el(
      "ul",
      { class: "miles" },
      MILES.map((m) => el("li", { "data-miles": m }, `${cardName(t, m)}: ${table.miles[m]} / ${view.required[m]}`)),
    );
    tables.append(
      el(
        "section",
        { class: `tt-table${mine ? " mine" : ""}${view.to_act !== null && table.seats.includes(view.to_act) ? " acting" : ""}`, "data-team": table.team },
        el("h3", {}, tableLabel(ctx, table), " ", el("span", { class: "label" }, `(${table.label})`)),
        el("div", { class: "piles" },
          el("div", { class: "pile go-pile" }, el("small", {}, t("touring.ui.go_pile")), el("div", { class: `card ${table.moving ? "go" : "stop"}` }, pileTop(t, table.go))),
          el("div", { class: "pile speed-pile" }, el("small", {}, t("touring.ui.speed_pile")), el("div", { class: `card ${table.limited ? "stop" : "go"}` }, pileTop(t, table.speed))),
        ),
        el("p", { class: "total" }, t("touring.ui.miles_total", { total: table.total, goal: view.goal })),
        miles,
        el("small", { class: "muted" }, table.seats.map((s) => `${ctx.names[s]}: ${t("touring.ui.cards_in_hand", { count: view.hand_counts[s] })}`).join(" · ")),
      ),
    );
  }
  const discardTop = view.discard.length ? cardName(t, view.discard[view.discard.length - 1]) : t("touring.ui.empty");
  const piles = el(
    "div",
    { class: "touring-center" },
    el("div", { class: "pile", id: "draw-pile" }, el("div", { class: "card back" }, "?"), t("touring.ui.draw_pile", { count: view.draw_pile })),
    el("div", { class: "pile", id: "discard-pile" }, el("div", { class: "card" }, discardTop), t("touring.ui.discard_pile", { count: view.discard.length, top: discardTop })),
  );
  root.append(tables, piles);
  if (view.hand) root.append(hand(ctx));
}

function hand(ctx) {
  const { view, t, legal } = ctx;
  const byCard = new Map();
  for (const move of legal) {
    const card = cardOf(move.text);
    if (card === null) continue;
    if (!byCard.has(card)) byCard.set(card, []);
    byCard.get(card).push(move);
  }
  const choices = el("div", { class: "choices", id: "card-choices" });
  const cards = el("div", { class: "hand", id: "hand" });
  for (const slug of view.hand) {
    const moves = byCard.get(slug) || [];
    const button = el(
      "button",
      {
        class: `card hand-card${moves.length ? " playable" : ""}`,
        "data-card": slug,
        disabled: !moves.length,
        onclick: () => {
          if (moves.length === 1) {
            ctx.act(moves[0].text);
            return;
          }
          clear(choices);
          choices.append(el("span", {}, `${cardName(t, slug)}: `));
          for (const move of moves) choices.append(el("button", { class: "move choice", "data-action": move.text, onclick: () => ctx.act(move.text) }, move.label || move.text));
        },
      },
      cardName(t, slug),
    );
    cards.append(button);
  }
  return el("section", { class: "panel" }, el("h2", {}, t("touring.ui.hand")), cards, choices);
}
