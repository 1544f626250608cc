// Codenames Duet: the 5×5 grid of agent cards with your side of the key (colour AND an icon and a
// pattern), found-agent and bystander tokens, timer tokens, clue entry, and the whole key at the end.
import { html } from "/static/js/ui.js";
import { aside, joinList } from "/static/js/i18n.js";

const ICON = {
  green: html`<svg viewBox="0 0 16 16" class="key-icon" aria-hidden="true"><circle cx="8" cy="5" r="3" fill="#1b5e20"/><path d="M2 15c0-4 3-6 6-6s6 2 6 6z" fill="#1b5e20"/></svg>`,
  assassin: html`<svg viewBox="0 0 16 16" class="key-icon" aria-hidden="true"><rect x="1" y="1" width="14" height="14" rx="2" fill="#111"/><path d="M4 4l8 8M12 4l-8 8" stroke="#fff" stroke-width="2.2"/></svg>`,
  bystander: html`<svg viewBox="0 0 16 16" class="key-icon" aria-hidden="true"><circle cx="8" cy="8" r="5" fill="none" stroke="#8d6e63" stroke-width="2"/></svg>`,
};

function Token({ kind, t, partner = false }) {
  const label = t(kind === "agent" ? "codenames_duet.piece.token_agent" : partner ? "codenames_duet.piece.token_bystander_partner" : "codenames_duet.piece.token_bystander");
  if (kind === "agent") {
    return html`<svg viewBox="0 0 20 20" class="token agent" role="img" aria-label=${label}><circle cx="10" cy="10" r="9" fill="#2e7d32" stroke="#fff" stroke-width="1.5"/><path d="M5 10l3 3 7-7" stroke="#fff" stroke-width="2.5" fill="none"/></svg>`;
  }
  return html`<svg viewBox="0 0 20 20" class=${`token bystander${partner ? " partner" : ""}`} role="img" aria-label=${label}><rect x="2" y="2" width="16" height="16" rx="3" fill=${partner ? "#fff" : "#d7ccc8"} stroke="#6d4c41" stroke-width="1.5" stroke-dasharray=${partner ? "3 2" : ""}/><path d="M6 6l8 8M14 6l-8 8" stroke="#6d4c41" stroke-width="2"/></svg>`;
}

// A word's width in ems. Full-width characters (CJK, kana, hangul, full-width forms) take 1em;
// Latin letters take their advance in DejaVu Sans, the widest of the sans-serif fonts a page
// falls back on (phones' own fonts are narrower, so a word may shrink a little too much, never
// too little); any other character 0.75em.
const FULL_WIDTH = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u;
const LATIN = {
  a: 0.61, b: 0.64, c: 0.55, d: 0.64, e: 0.62, f: 0.35, g: 0.64, h: 0.63, i: 0.28, j: 0.28, k: 0.58, l: 0.28, m: 0.97,
  n: 0.63, o: 0.61, p: 0.64, q: 0.64, r: 0.41, s: 0.52, t: 0.39, u: 0.63, v: 0.59, w: 0.82, x: 0.59, y: 0.59, z: 0.53, "-": 0.36,
};

/** A word's style: its width in ems (5% to spare), from which the CSS shrinks a long word to fit
 * its card. A five-column grid leaves a phone's card 45-60 px: long words broke in two ("mounta|in"). */
function fitted(word) {
  let ems = 0;
  for (const ch of word) ems += FULL_WIDTH.test(ch) ? 1 : LATIN[ch.toLowerCase()] ?? 0.75;
  return `--ems: ${(Math.max(ems, 1) * 1.05).toFixed(2)}`;
}

export function Board(ctx) {
  const { view, t, prev } = ctx;
  const guessable = new Map();
  for (const move of ctx.legal) if (move.text.startsWith("guess ")) guessable.set(move.text.slice(6), move);
  const mySide = view.side;
  const partner = mySide === null || mySide === undefined ? null : 1 - mySide;
  // htm drops whitespace that holds a line break, so separators are written ${" · "} on one line
  return html`
    <p class="cd-counters">
      <span id="agents-found">${t("codenames_duet.ui.agents", { found: view.agents_found, total: view.agents_total })}</span>${" · "}<span id="timer-tokens" data-tip=${t("codenames_duet.piece.timer")} tabindex="0">${t("codenames_duet.ui.tokens", { tokens: view.tokens, start: view.tokens_start })}
        <span class="timer-row" aria-hidden="true">${Array.from({ length: view.tokens_start }, (_, i) => html`<span class=${i < view.tokens ? "tt on" : "tt"}></span>`)}</span>
      </span>${" · "}${t("codenames_duet.ui.mistakes", { used: view.mistakes, allowed: view.mistakes_allowed ?? "∞" })}
    </p>
    <p class="cd-phase">${phaseText(ctx)}</p>
    <div class="cd-grid" id="grid">
      ${view.words.map((word, i) => {
        const kind = view.key ? view.key[i] : null;
        const classes = ["cd-card"];
        const tokens = [];
        const says = [];
        if (kind) {
          classes.push(`key-${kind}`);
          says.push(t(`codenames_duet.piece.key_${kind}`));
        }
        if (view.agents[i] !== null) {
          classes.push("found");
          tokens.push(html`<${Token} kind="agent" t=${t} />`);
          says.push(t("codenames_duet.piece.token_agent"));
          if (prev && prev.agents && prev.agents[i] === null) classes.push("changed", "last-move");
        }
        if (view.assassin === i) classes.push("assassin-hit");
        const mine = mySide !== null && mySide !== undefined ? view.bystanders[mySide].includes(i) : view.bystanders.some((l) => l.includes(i));
        const theirs = partner !== null ? view.bystanders[partner].includes(i) : false;
        if (mine) {
          tokens.push(html`<${Token} kind="bystander" t=${t} />`);
          says.push(t("codenames_duet.piece.token_bystander"));
        }
        if (theirs) {
          tokens.push(html`<${Token} kind="bystander" t=${t} partner=${true} />`);
          says.push(t("codenames_duet.piece.token_bystander_partner"));
        }
        if (prev && prev.bystanders && view.bystanders.some((l, s) => l.includes(i) && !(prev.bystanders[s] || []).includes(i))) classes.push("changed", "last-move");
        const move = guessable.get(word);
        if (move) classes.push("guessable");
        return html`<button key=${i} class=${classes.join(" ")} data-word=${word} data-index=${i} disabled=${!move} aria-disabled=${move ? null : "true"}
            data-tip=${says.length ? t("codenames_duet.page.word_tip", { word, about: says.join(" · ") }) : word} aria-label=${joinList([word, ...says])} onClick=${() => move && ctx.act(move.text)}>
          ${kind ? ICON[kind] : null}
          <span class="word" style=${fitted(word)}>${word}</span>
          ${tokens.length ? html`<span class="marks">${tokens}</span>` : null}
        </button>`;
      })}
    </div>
    <p class="muted legend" id="cd-legend">
      ${view.key
        ? html`${t("codenames_duet.page.cd_legend_side", { side: t(`codenames_duet.side.${mySide}`) })} ${ICON.green} ${t("codenames_duet.piece.key_green")} · ${ICON.assassin} ${t("codenames_duet.piece.key_assassin")} · ${ICON.bystander} ${t("codenames_duet.piece.key_bystander")}`
        : t("codenames_duet.page.cd_legend_public")}
    </p>
    ${ctx.legal.some((m) => m.text.startsWith("clue ")) ? html`<${ClueForm} ctx=${ctx} />` : null}
    ${view.clues && view.clues.length ? html`<${History} ctx=${ctx} />` : null}`;
}

function phaseText(ctx) {
  const { view, t } = ctx;
  if (view.over) return t("codenames_duet.ui.over");
  const player = ctx.names[view.to_act] ?? "";
  if (view.phase === "clue") return t("codenames_duet.page.phase_clue", { player });
  if (view.phase === "guess" && view.clue) return t("codenames_duet.page.phase_guess", { word: view.clue.word, number: view.clue.number, player });
  return t("codenames_duet.ui.phase_sudden", { player });
}

function ClueForm({ ctx }) {
  const submit = (e) => {
    e.preventDefault();
    const word = e.target.querySelector("#clue-word").value.trim();
    const number = e.target.querySelector("#clue-number").value;
    if (word) ctx.act(`clue ${word} ${number}`);
  };
  // uncontrolled inputs (no value= here): Preact leaves what the player typed alone on every update
  return html`<section class="panel" key="clue-form">
    <h2>${ctx.t("codenames_duet.page.your_clue")}</h2>
    <form class="typed clue-form" onSubmit=${submit}>
      <input id="clue-word" autocomplete="off" aria-label=${ctx.t("codenames_duet.page.clue_word")} placeholder=${ctx.t("codenames_duet.page.clue_word")} />
      <input id="clue-number" type="number" min="0" max="9" defaultValue="1" aria-label=${ctx.t("codenames_duet.page.clue_number")} />
      <button type="submit" id="give-clue">${ctx.t("codenames_duet.page.give_clue")}</button>
    </form>
    <p class="error" id="clue-error" role="alert">${ctx.error}</p>
    <small>${ctx.t("codenames_duet.ui.clue_hint")}</small>
  </section>`;
}

function History({ ctx }) {
  const { view, t } = ctx;
  return html`<details class="panel">
    <summary>${t("codenames_duet.ui.history")}</summary>
    <div class="scroll" tabindex="0"><table class="counts">
      <thead><tr><th scope="col">${t("codenames_duet.ui.col_player")}</th><th scope="col">${t("codenames_duet.ui.col_clue")}</th><th scope="col">${t("codenames_duet.ui.col_guesses")}</th></tr></thead>
      <tbody>${view.clues.map((clue) => html`<tr>
        <td>${ctx.names[clue.seat] ?? ""}</td><td>${clue.word} ${clue.number}</td>
        <td>${joinList(clue.guesses.map((g) => g.word + aside(t(`codenames_duet.kind.${g.kind}`))))}${clue.penalty ? ` ${t("codenames_duet.ui.void")}` : ""}</td>
      </tr>`)}</tbody>
    </table></div>
  </details>`;
}

const keys = new Map();

/** After the game: both sides of the key card, fetched from the finished game's replay. */
export function ScoreSheet(ctx) {
  const { view, t } = ctx;
  const id = ctx.table.id;
  if (!keys.has(id)) {
    keys.set(id, null);
    fetch(`/api/tables/${encodeURIComponent(id)}/replay?viewer=all`)
      .then((r) => r.json())
      .then((data) => fetch(`/api/tables/${encodeURIComponent(id)}/replay/${data.total}?viewer=all`))
      .then((r) => r.json())
      .then((body) => {
        const sides = [];
        for (const [who, v] of Object.entries(body.views || {})) if (who !== "public" && v.key && v.side !== null && !sides[v.side]) sides[v.side] = v.key;
        keys.set(id, sides);
        ctx.redraw();
      })
      .catch(() => keys.set(id, []));
  }
  const sides = keys.get(id) || [];
  return html`<p>${t("codenames_duet.ui.agents", { found: view.agents_found, total: view.agents_total })} · ${t("codenames_duet.ui.tokens", { tokens: view.tokens, start: view.tokens_start })}</p>
    <div class="key-card" id="score-sheet">
      ${[0, 1].map((side) => html`<div class="key-side" key=${side}>
        <h3>${t(`codenames_duet.side.${side}`)}</h3>
        <div class="key-grid">${view.words.map((word, i) => {
          const kind = sides[side] ? sides[side][i] : null;
          return html`<span class=${`key-cell key-${kind || "unknown"}`} title=${kind ? t(`codenames_duet.piece.key_${kind}`) : ""}>${kind ? ICON[kind] : null}<span class="word" style=${fitted(word)}>${word}</span></span>`;
        })}</div>
      </div>`)}
    </div>`;
}
