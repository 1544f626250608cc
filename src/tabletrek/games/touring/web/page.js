// Touring: cards drawn as SVG (a symbol and colour per kind), each table's Go / Speed / mileage
// piles as stacks, the draw and discard piles, your hand, and a mileage sheet at the end.
import { html } from "/static/js/ui.js";
import { has, joinList } from "/static/js/i18n.js";
import { choose, pickedKey, Choices } from "/static/js/pick.js";

const MILES = ["1", "3", "15", "30"];
const DELAYS = new Set(["puncture", "out-of-gasoline", "collision", "city-limits"]);
const REMEDIES = new Set(["gasoline", "hauled-in", "country"]);

/** go / mileage / delay / remedy: the four families of cards, each its own colour. */
export function family(slug) {
  if (slug === "go") return "go";
  if (MILES.includes(slug)) return "miles";
  if (DELAYS.has(slug)) return "delay";
  if (REMEDIES.has(slug)) return "remedy";
  return "other";
}

const FILL = { go: "#2e7d32", miles: "#f5f0dc", delay: "#c62828", remedy: "#1565c0", other: "#777" };

function can(x, y, color) {
  return html`<g><rect x=${x - 9} y=${y - 10} width="18" height="22" rx="3" fill=${color} stroke="#fff" stroke-width="1.5"/><rect x=${x + 2} y=${y - 15} width="6" height="6" rx="1" fill=${color} stroke="#fff" stroke-width="1.2"/><path d=${`M${x - 5} ${y - 3}h10M${x - 5} ${y + 3}h10`} stroke="#fff" stroke-width="1.5"/></g>`;
}

function slash(x, y) {
  return html`<path d=${`M${x - 15} ${y + 15}L${x + 15} ${y - 15}`} stroke="#fff" stroke-width="4" stroke-linecap="round"/>`;
}

/** The symbol in the middle of a card (drawn in code: no image files). */
function symbol(slug) {
  const x = 30;
  const y = 36;
  switch (slug) {
    case "go":
      return html`<g><rect x="21" y="16" width="18" height="40" rx="5" fill="#222"/><circle cx="30" cy="24" r="4.5" fill="#555"/><circle cx="30" cy="36" r="4.5" fill="#555"/><circle cx="30" cy="48" r="5.5" fill="#76ff03" stroke="#fff"/></g>`;
    case "puncture":
      return html`<g><circle cx=${x} cy=${y} r="14" fill="none" stroke="#fff" stroke-width="6"/><circle cx=${x} cy=${y} r="4" fill="#fff"/><path d="M40 22l6-8 1 9z" fill="#ffeb3b"/></g>`;
    case "gasoline":
      return can(x, y, "#0d47a1");
    case "out-of-gasoline":
      return html`<g>${can(x, y, "#8e0000")}${slash(x, y)}</g>`;
    case "collision":
      return html`<polygon points="30,14 35,28 48,24 39,36 48,48 34,44 30,58 26,44 12,48 21,36 12,24 25,28" fill="#ffeb3b" stroke="#fff"/>`;
    case "hauled-in":
      return html`<g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"><path d="M30 14v22a8 8 0 1 1-8-8"/><path d="M24 14h12"/></g>`;
    case "city-limits":
      return html`<g><circle cx=${x} cy=${y} r="15" fill="#fff" stroke="#ffcdd2" stroke-width="3"/><text x=${x} y=${y + 5} font-size="14" text-anchor="middle" font-weight="700" fill="#c62828">25</text></g>`;
    case "country":
      return html`<g><circle cx=${x} cy=${y} r="15" fill="#fff"/><text x=${x} y=${y + 5} font-size="14" text-anchor="middle" font-weight="700" fill="#999">25</text><path d="M19 47L41 25" stroke="#1565c0" stroke-width="4"/></g>`;
    default:
      if (MILES.includes(slug)) {
        return html`<g><path d="M18 58L26 18h8l8 40z" fill="#9e9e9e"/><path d="M30 22v6M30 34v7M30 47v8" stroke="#fff" stroke-width="2"/><text x=${x} y=${y + 6} font-size=${slug.length > 1 ? 20 : 24} text-anchor="middle" font-weight="800" fill="#1b5e20" stroke="#fff" stroke-width="0.8">${slug}</text></g>`;
      }
      return html`<text x=${x} y=${y} text-anchor="middle" fill="#fff">?</text>`;
  }
}

const CARD_TEXT = 52; // the widest a name may run on a card (viewBox units, inside the border)

/** Roughly how wide ``text`` is at ``size``: a Chinese character takes a full em, Latin about half. */
function textWidth(text, size) {
  return [...text].reduce((w, ch) => w + (ch.codePointAt(0) >= 0x2e80 ? 1 : 0.58), 0) * size;
}

/** A line of a card's name, squeezed to the card when it would run past its edges. */
function NameLine({ text, y, size, ink }) {
  const fit = textWidth(text, size) > CARD_TEXT ? { textLength: CARD_TEXT, lengthAdjust: "spacingAndGlyphs" } : {};
  return html`<text x="30" y=${y} font-size=${size} text-anchor="middle" fill=${ink} font-weight="700" ...${fit}>${text}</text>`;
}

/** One card as SVG; name below the symbol in the player's language. */
export function Card({ slug, t, cls = "", label = null }) {
  const fam = family(slug);
  const name = t(`touring.card.${slug}`);
  const ink = fam === "miles" ? "#1b5e20" : "#fff";
  // A Chinese name carries the printed English name in brackets ("汽油耗盡（Out of Gasoline）"):
  // on one line it ran off the card, so the English goes on a smaller second line.
  const gloss = name.match(/^(.+?)\s*[(（](.+)[)）]$/);
  const lines = gloss && textWidth(name, 8) > CARD_TEXT
    ? html`<${NameLine} text=${gloss[1]} y="71" size="8" ink=${ink} /><${NameLine} text=${gloss[2]} y="79" size="5.5" ink=${ink} />`
    : html`<${NameLine} text=${name} y="75" size=${name.length > 10 ? 6.5 : 8} ink=${ink} />`;
  return html`<svg viewBox="0 0 60 84" class=${`tt-card fam-${fam} ${cls}`} role="img" aria-label=${label || name}>
    <rect x="1" y="1" width="58" height="82" rx="6" fill=${FILL[fam]} stroke=${fam === "miles" ? "#8d6e63" : "#fff"} stroke-width="2"/>
    ${symbol(slug)}
    ${lines}
  </svg>`;
}

function Back({ cls = "" }) {
  return html`<svg viewBox="0 0 60 84" class=${`tt-card back ${cls}`} aria-hidden="true"><rect x="1" y="1" width="58" height="82" rx="6" fill="#1f6f8b" stroke="#fff" stroke-width="2"/><path d="M10 20h40M10 42h40M10 64h40" stroke="#ffffff55" stroke-width="6"/></svg>`;
}

function tip(t, slug) {
  // sentences and the colon come from the catalog: Chinese runs them together after a full-width colon
  const fam = family(slug);
  const parts = [fam === "other" ? null : t(`touring.piece.${fam}`)];
  if (has(`touring.piece.card.${slug}`)) parts.push(t(`touring.piece.card.${slug}`));
  const [kind, about] = parts.filter(Boolean).length === 2 ? parts : [null, parts.filter(Boolean)[0] ?? ""];
  const card = t(`touring.card.${slug}`);
  return kind ? t("touring.page.tip", { card, kind, about }) : t("touring.page.tip_short", { card, about });
}

/** A pile: its top card over a little stack showing how many lie beneath. */
function Pile({ cards, t, id, title, changed, back = false }) {
  const depth = Math.min(4, Math.ceil(cards.length / 6));
  const top = cards.length ? cards[cards.length - 1] : null;
  const label = top
    ? t("touring.page.pile_label", { title, card: t(`touring.card.${top}`), size: cards.length })
    : t("web.ui.labelled", { label: title, text: t("touring.ui.empty") });
  return html`<div class=${`pile${changed ? " changed" : ""}`} id=${id} data-tip=${top && !back ? tip(t, top) : label} tabindex="0" aria-label=${label}>
    <div class="stack" style=${`--depth:${depth}`}>
      ${Array.from({ length: depth }, (_, i) => html`<span class="under" style=${`--i:${i + 1}`}></span>`)}
      ${back ? html`<${Back} />` : top ? html`<span class="top" key=${`${top}-${cards.length}`} data-flip=${`card-${top}`}><${Card} slug=${top} t=${t} /></span>` : html`<div class="empty-slot">${t("touring.ui.empty")}</div>`}
    </div>
    <small>${title}</small>
  </div>`;
}

function tableLabel(ctx, table) {
  const members = joinList(table.seats.map((s) => ctx.names[s]));
  if (ctx.view.teams.length < ctx.view.players) return ctx.t("touring.ui.team_table", { team: ctx.t(`touring.team.${table.team + 1}`), members });
  return members;
}

/** The card slug an action text uses ("play puncture p2" -> "puncture"), or null for "pass". */
export function cardOf(text) {
  const words = text.split(" ");
  return words[0] === "play" || words[0] === "discard" ? words[1] : null;
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function Board(ctx) {
  const { view, t, prev } = ctx;
  const before = (i) => (prev && prev.tables ? prev.tables[i] : null);
  const tables = view.tables.map((table, i) => {
    const old = before(i);
    const mine = view.team !== null && table.team === view.team;
    const acting = view.to_act !== null && table.seats.includes(view.to_act);
    return html`<section key=${table.team} class=${`tt-table${mine ? " mine" : ""}${acting ? " acting" : ""}`} data-team=${table.team}>
      <h2>${table.seats.map((s) => html`<span class="swatch" style=${`background:var(--seat-${s})`}></span>`)} ${tableLabel(ctx, table)}</h2>
      <div class="piles">
        <${Pile} cards=${table.go} t=${t} title=${t("touring.ui.go_pile")} changed=${old && !same(old.go, table.go)} />
        <${Pile} cards=${table.speed} t=${t} title=${t("touring.ui.speed_pile")} changed=${old && !same(old.speed, table.speed)} />
        <div class="miles-piles">
          ${MILES.map((m) => html`<div key=${m} class=${`miles-pile${old && old.miles[m] !== table.miles[m] ? " changed" : ""}`} data-miles=${m} data-tip=${t("touring.page.pile_tip", { card: t(`touring.card.${m}`), have: table.miles[m], required: view.required[m], about: t("touring.piece.required") })} tabindex="0">
            <${Card} slug=${m} t=${t} cls="mini" />
            <span class="count">${table.miles[m]}/${view.required[m]}</span>
          </div>`)}
        </div>
      </div>
      <p class="total"><meter min="0" max=${view.goal} value=${table.total} aria-label=${t("touring.ui.miles_total", { total: table.total, goal: view.goal })}></meter> ${t("touring.ui.miles_total", { total: table.total, goal: view.goal })}</p>
      <small class="muted">${table.seats.map((s) => t("touring.page.seat_cards", { player: ctx.names[s], cards: t("touring.ui.cards_in_hand", { count: view.hand_counts[s] }) })).join(" · ")}</small>
    </section>`;
  });
  const discardChanged = prev && prev.discard && prev.discard.length !== view.discard.length;
  return html`
    <div class="touring-tables">${tables}</div>
    <div class="touring-center">
      <${Pile} cards=${new Array(view.draw_pile).fill("back")} back=${true} t=${t} id="draw-pile" title=${t("touring.ui.draw_pile", { count: view.draw_pile })} />
      <${Pile} cards=${view.discard} t=${t} id="discard-pile" title=${t("touring.page.touring_discard", { count: view.discard.length })} changed=${discardChanged} />
    </div>
    ${view.hand ? html`<${Hand} ctx=${ctx} />` : null}`;
}

function Hand({ ctx }) {
  const { view, t, legal } = ctx;
  const byCard = new Map();
  for (const move of legal) {
    const card = cardOf(move.text);
    if (card === null) continue;
    if (!byCard.has(card)) byCard.set(card, []);
    byCard.get(card).push(move);
  }
  const open = pickedKey(ctx);
  const title = ctx.live ? t("touring.ui.hand") : t("touring.page.hand_of", { player: ctx.names[view.seat] ?? "" });
  return html`<section class="panel" aria-label=${title}>
    <h2>${title}</h2>
    <div class="hand" id="hand">
      ${view.hand.map((slug, i) => {
        const moves = byCard.get(slug) || [];
        return html`<button key=${`${slug}-${i}`} class=${`hand-card${moves.length ? " playable" : ""}`} data-card=${slug} data-flip=${`card-${slug}`} data-tip=${tip(t, slug)} disabled=${!moves.length} aria-label=${t(`touring.card.${slug}`)} onClick=${() => choose(ctx, slug, moves)}>
          <${Card} slug=${slug} t=${t} />
        </button>`;
      })}
    </div>
    <${Choices} ctx=${ctx} id="card-choices" moves=${open ? byCard.get(open) : null} title=${open ? t(`touring.card.${open}`) : ""} />
  </section>`;
}

export function ScoreSheet(ctx) {
  const { view, t } = ctx;
  const result = ctx.result || {};
  return html`<div class="scroll" tabindex="0"><table class="counts score-sheet" id="score-sheet">
    <thead><tr><th scope="col">${t("web.table.col_player")}</th>${MILES.map((m) => html`<th scope="col">${t(`touring.card.${m}`)}</th>`)}<th scope="col">${t("touring.ui.total")}</th></tr></thead>
    <tbody>${view.tables.map((table) => html`<tr class=${table.seats.some((s) => (result.winners || []).includes(s)) ? "winner" : ""}>
      <td>${tableLabel(ctx, table)}</td>
      ${MILES.map((m) => html`<td>${table.miles[m]} / ${view.required[m]}</td>`)}
      <td><strong>${table.total}</strong> / ${view.goal}</td>
    </tr>`)}</tbody>
  </table></div>`;
}
