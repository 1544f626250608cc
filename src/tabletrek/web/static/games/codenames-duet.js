// Codenames Duet: the 5×5 grid with your side of the key, timer tokens, clue entry, guesses by click.
import { el, clear } from "../js/dom.js";

export function render(root, ctx) {
  clear(root);
  const { view, t } = ctx;
  const guessable = new Map();
  for (const move of ctx.legal) {
    if (move.text.startsWith("guess ")) guessable.set(move.text.slice(6), move);
  }
  const mySide = view.side;
  const partner = mySide === null || mySide === undefined ? null : 1 - mySide;
  root.append(
    el(
      "p",
      { class: "cd-counters" },
      el("span", { id: "agents-found" }, t("codenames_duet.ui.agents", { found: view.agents_found, total: view.agents_total })),
      " · ",
      el("span", { id: "timer-tokens" }, t("codenames_duet.ui.tokens", { tokens: view.tokens, start: view.tokens_start })),
      " · ",
      t("codenames_duet.ui.mistakes", { used: view.mistakes, allowed: view.mistakes_allowed ?? "∞" }),
    ),
  );
  root.append(el("p", { class: "cd-phase" }, phaseText(ctx)));
  const grid = el("div", { class: "cd-grid", id: "grid" });
  view.words.forEach((word, i) => {
    const classes = ["cd-card"];
    const marks = [];
    if (view.key) classes.push(`key-${view.key[i]}`);
    if (view.agents[i] !== null) {
      classes.push("found");
      marks.push("✓");
    }
    if (view.assassin === i) {
      classes.push("assassin-hit");
      marks.push("☠");
    }
    if (mySide !== null && mySide !== undefined) {
      if (view.bystanders[mySide].includes(i)) marks.push("×");
      if (view.bystanders[partner].includes(i)) marks.push("·");
    } else {
      if (view.bystanders.some((list) => list.includes(i))) marks.push("×");
    }
    const move = guessable.get(word);
    grid.append(
      el(
        "button",
        {
          class: classes.join(" ") + (move ? " guessable" : ""),
          "data-word": word,
          "data-index": i,
          disabled: !move,
          onclick: () => move && ctx.act(move.text),
        },
        el("span", { class: "word" }, word),
        marks.length ? el("span", { class: "marks" }, marks.join(" ")) : null,
      ),
    );
  });
  root.append(grid);
  root.append(el("p", { class: "muted legend" }, view.key ? t("codenames_duet.ui.legend_key", { side: t(`codenames_duet.side.${mySide}`) }) : t("codenames_duet.ui.legend_public")));
  if (ctx.legal.some((m) => m.text.startsWith("clue "))) root.append(clueForm(ctx));
  if (view.clues && view.clues.length) root.append(history(ctx));
}

function phaseText(ctx) {
  const { view, t } = ctx;
  if (view.over) return t("codenames_duet.ui.over");
  const player = ctx.names[view.to_act] ?? "";
  if (view.phase === "clue") return t("codenames_duet.ui.phase_clue", { player });
  if (view.phase === "guess" && view.clue) return t("codenames_duet.ui.phase_guess", { word: view.clue.word, number: view.clue.number, player });
  return t("codenames_duet.ui.phase_sudden", { player });
}

function clueForm(ctx) {
  const word = el("input", { id: "clue-word", autocomplete: "off", "aria-label": ctx.t("web.ui.clue_word"), placeholder: ctx.t("web.ui.clue_word") });
  const number = el("input", { id: "clue-number", type: "number", min: 0, max: 9, value: 1, "aria-label": ctx.t("web.ui.clue_number") });
  const form = el(
    "form",
    {
      class: "typed clue-form",
      onsubmit: (e) => {
        e.preventDefault();
        if (word.value.trim()) ctx.act(`clue ${word.value.trim()} ${number.value}`);
      },
    },
    word,
    number,
    el("button", { type: "submit", id: "give-clue" }, ctx.t("web.ui.give_clue")),
  );
  // the server's reason for refusing a clue (a word on the table, two words, …) appears right here
  return el("section", { class: "panel" }, el("h2", {}, ctx.t("web.ui.your_clue")), form, el("p", { class: "error", "data-error-slot": "1", id: "clue-error" }), el("small", {}, ctx.t("codenames_duet.ui.clue_hint")));
}

function history(ctx) {
  const { view, t } = ctx;
  const rows = view.clues.map((clue) =>
    el(
      "tr",
      {},
      el("td", {}, ctx.names[clue.seat] ?? ""),
      el("td", {}, `${clue.word} ${clue.number}`),
      el("td", {}, clue.guesses.map((g) => `${g.word} (${t(`codenames_duet.kind.${g.kind}`)})`).join(", ") + (clue.penalty ? ` ${t("codenames_duet.ui.void")}` : "")),
    ),
  );
  return el(
    "details",
    { class: "panel" },
    el("summary", {}, t("codenames_duet.ui.history")),
    el("table", { class: "counts" }, el("thead", {}, el("tr", {}, el("th", {}, t("codenames_duet.ui.col_player")), el("th", {}, t("codenames_duet.ui.col_clue")), el("th", {}, t("codenames_duet.ui.col_guesses")))), el("tbody", {}, rows)),
  );
}
