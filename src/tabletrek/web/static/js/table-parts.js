// The parts of a live table around the game's own board: the turn bar, moves, the game-over
// sheet with Rematch, preferences, seats, chat, invite links and the log.
import { html, seatColor } from "./ui.js";
import { t, render as renderMessage, botLabel, shownNames } from "./i18n.js";
import { prefs, setPref } from "./prefs.js";
import { readObject, tableHref, tableKey } from "./store.js";
import { reason, requestJson } from "./api.js";

export const CHAT_MAX = 200;

export function TurnBar({ model, text }) {
  const mine = model.to_act === model.you && model.you !== null && !model.over;
  const who = model.over ? null : model.to_act;
  return html`
    <p id="status" class=${mine ? "status turn-bar mine" : "status turn-bar"} style=${`--seat:${seatColor(who)}`} aria-live="polite">
      ${who !== null && who !== undefined ? html`<span class="swatch big" style=${`background:${seatColor(who)}`} aria-hidden="true"></span>` : null}
      <span class="status-text">${text}</span> <${Clock} model=${model} />
    </p>`;
}

let clockTimer = null;
function Clock({ model }) {
  clearInterval(clockTimer);
  if (!model.clock) return html`<span id="clock" class="clock"></span>`;
  const ends = Date.now() + model.clock.remaining * 1000;
  const label = () => t("web.ui.clock_left", { seconds: Math.max(0, Math.round((ends - Date.now()) / 1000)), player: shownNames(model.names, model.table)[model.clock.seat] });
  clockTimer = setInterval(() => {
    const box = document.getElementById("clock");
    if (box) box.textContent = label();
  }, 1000);
  return html`<span id="clock" class="clock">${label()}</span>`;
}

/** Legal moves as buttons (every game), plus a text box for moves that are typed. */
export function Moves({ ctx }) {
  // A spectator has no moves: the section stays (one node for Preact to keep), but not as an empty box.
  if (ctx.you === null) return html`<section id="moves" class="panel moves" hidden></section>`;
  const waiting = !ctx.legal.length;
  let typed = null;
  const submit = (e) => {
    e.preventDefault();
    const input = e.target.querySelector("input");
    if (input.value.trim()) ctx.act(input.value.trim());
  };
  typed = html`<form class="typed" onSubmit=${submit} key="typed">
      <input id="move-text" autocomplete="off" placeholder=${t("web.ui.type_move")} aria-label=${t("web.ui.type_move")} />
      <button type="submit">${t("web.ui.send")}</button>
    </form>`;
  return html`
    <section id="moves" class=${waiting ? "panel moves" : "panel moves active"} aria-label=${t("web.ui.moves")}>
      ${waiting
        ? html`<p class="muted">${t("web.ui.waiting")}</p>`
        : html`<h2>${t("web.ui.moves")}</h2>
          <div class="move-list">
            ${ctx.legal.slice(0, 400).map((move) => html`<button class="move" key=${move.text} data-action=${move.text} title=${move.text} onClick=${() => ctx.act(move.text)}>${move.label || move.text}</button>`)}
          </div>`}
      <details class="typed-box"><summary>${t("web.ui.type_move")}</summary>${typed}</details>
    </section>`;
}

export function GameOver({ ctx, module, rematch, tableId, saved, send }) {
  const sheet = module.ScoreSheet ? module.ScoreSheet(ctx) : null;
  const ask = async () => {
    const headers = {};
    if (saved.token) headers["x-seat-token"] = saved.token;
    if (saved.host) headers["x-host-token"] = saved.host;
    const [ok, body] = await requestJson(`/api/tables/${encodeURIComponent(tableId)}/rematch`, { method: "POST", headers });
    if (!ok) {
      const box = document.getElementById("rematch-error");
      if (box) box.textContent = reason(body);
      return;
    }
    const entry = readObject(tableKey(body.table));
    if (body.token) entry.token = body.token;
    else if (body.invite && !entry.token) entry.claim = body.invite; // claimed by the new table's page
    if (body.host) {
      entry.host = body.host;
      entry.invites = body.invites;
    }
    location.href = tableHref(body.table, entry);
  };
  return html`
    <section id="game-over" class="panel game-over">
      <h2>${t("web.table.final_scores")}</h2>
      ${sheet}
      <p class="move-list">
        ${ctx.you !== null || saved.host ? html`<button id="rematch" onClick=${ask}>${t("web.table.rematch")}</button>` : null}
        ${rematch && rematch.table ? html`<a id="rematch-link" class="button-link" href=${tableHref(rematch.table, readObject(tableKey(rematch.table)))}>${t("web.table.rematch_join")}</a>` : null}
        <a class="button-link secondary" href="/">${t("web.ui.lobby")}</a>
      </p>
      <p id="rematch-error" class="error" role="alert"></p>
    </section>`;
}

export function Prefs({ module, you, over, redraw }) {
  if (you === null || over) return null;
  const box = (name, label) => html`<label class="pref"><input type="checkbox" id=${`pref-${name}`} checked=${prefs[name]} onChange=${(e) => { setPref(name, e.target.checked); redraw(); }} /> ${label}</label>`;
  return html`
    <details class="panel prefs" id="prefs">
      <summary>${t("web.table.prefs")}</summary>
      ${box("sound", t("web.table.pref_sound"))}
      ${module.autoMove ? box("autoPass", t("web.table.pref_autopass")) : null}
      ${module.autoMove ? box("autoEnd", t("web.table.pref_autoend")) : null}
    </details>`;
}

export function Seats({ model, send }) {
  const info = model.table;
  const you = model.you;
  const names = shownNames(model.names, info);
  const rows = info.seats.map((seat) => {
    const flags = [];
    if (seat.kind === "bot") flags.push(t("web.table.bot_name", { bot: botLabel(info.domain, seat.bot) }));
    else if (seat.away) flags.push(t("web.ui.away"));
    else flags.push(seat.connected ? t("web.ui.online") : t("web.ui.offline"));
    if (seat.seat === model.to_act && !model.over) flags.push(t("web.ui.playing_now"));
    return html`<li key=${seat.seat} class=${seat.seat === you ? "me" : ""}><span class="swatch" style=${`background:${seatColor(seat.seat)}`} aria-hidden="true"></span> ${t("web.table.seat_line", { name: names[seat.seat], flags: flags.join(" · ") })}</li>`;
  });
  let control = null;
  if (you !== null && !model.over) {
    control = info.seats[you].away
      ? html`<button id="back" onClick=${() => send({ type: "back" })}>${t("web.ui.back")}</button>`
      : html`<button id="leave" class="secondary" onClick=${() => send({ type: "leave" })}>${t("web.ui.leave")}</button>`;
  }
  return html`
    <section class="panel">
      <h2>${t("web.ui.seats")}</h2>
      <ul id="seats" class="seat-list">${rows}</ul>
      ${control ? html`<p>${control}</p>` : null}
      <p class="muted">${t("web.ui.spectators", { n: info.spectators })}</p>
    </section>`;
}

export function Chat({ lines, names, you, send }) {
  const submit = (e) => {
    e.preventDefault();
    const input = e.target.querySelector("input");
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) input.value = "";
  };
  return html`
    <section class="panel chat" id="chat-panel">
      <h2>${t("web.table.chat")}</h2>
      <ol id="chat" class="chat-lines" aria-live="polite" tabindex="0" aria-label=${t("web.table.chat")}>
        ${lines.map((line) => html`<li key=${line.n}><span class="swatch" style=${`background:${seatColor(line.seat)}`} aria-hidden="true"></span> <strong>${line.seat === null || line.seat === undefined ? line.name : names[line.seat] ?? line.name}</strong>${t("core.text.colon")}${line.text}</li>`)}
      </ol>
      ${you !== null
        ? html`<form class="typed" onSubmit=${submit}>
            <input id="chat-text" autocomplete="off" maxlength=${CHAT_MAX} placeholder=${t("web.table.chat_placeholder")} aria-label=${t("web.table.chat_placeholder")} />
            <button type="submit" id="chat-send">${t("web.ui.send")}</button>
          </form>`
        : html`<p class="muted">${t("web.table.chat_seated")}</p>`}
    </section>`;
}

/**
 * Whether ``hostname`` names only the computer it is typed on, so a link to it reaches nobody else.
 * It is read as ``location.hostname`` gives it: IPv4 as four numbers, IPv6 in brackets and
 * compressed ("[::ffff:127.0.0.1]" arrives as "[::ffff:7f00:1]"). Kept in step with
 * ``is_loopback`` in cli/serve.py, which decides the same for the address tabletrek listens on.
 */
export function isLoopback(hostname) {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true; // RFC 6761: always this computer
  if (/^127(\.\d{1,3}){3}$/.test(host) || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)) return true;
  // "Every address" opened in a browser is the computer it is typed on, too.
  return host === "[::1]" || host === "0.0.0.0" || host === "[::]";
}

export function Invites({ invites, names, tableId, onNew }) {
  const watch = `${location.origin}/t/${tableId}#watch`;
  // The links are made from the address this page was opened at: "localhost" in a friend's link
  // is the friend's own computer, so say so where the links are, not after they failed.
  const onlyHere = isLoopback(location.hostname);
  return html`
    <details class="panel" id="invite-panel">
      <summary>${t("web.ui.invites")}</summary>
      ${onlyHere ? html`<p class="note" id="invite-only-here">${t("web.table.invite_only_here", { host: location.hostname })}</p>` : null}
      <ul id="invites">
        ${Object.entries(invites).map(([seat, token]) => html`
          <li key=${seat} data-seat=${seat}>
            <label>${t("web.ui.labelled", { label: names[Number(seat)], text: "" })}<input readonly value=${`${location.origin}/t/${tableId}#invite=${token}`} class="invite" onClick=${(e) => e.target.select()} /></label>
            <button class="secondary new-invite" onClick=${() => onNew(seat)}>${t("web.ui.new_invite")}</button>
          </li>`)}
        <li><label>${t("web.ui.spectator_link")}${t("core.text.colon")}<input readonly value=${watch} class="invite" onClick=${(e) => e.target.select()} /></label></li>
      </ul>
    </details>`;
}

let stick = true;
export function Log({ entries, names }) {
  // follow the newest line unless the reader scrolled up to read older ones
  const ref = (list) => {
    if (!list) return;
    if (!list.dataset.bound) {
      list.dataset.bound = "1";
      list.addEventListener("scroll", () => (stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 24));
    }
    if (stick) requestAnimationFrame(() => (list.scrollTop = list.scrollHeight));
  };
  return html`
    <section class="panel">
      <h2>${t("web.ui.log")}</h2>
      ${entries.length ? null : html`<p class="muted" id="log-empty">${t("web.ui.log_empty")}</p>`}
      <ol id="log" class="log" ref=${ref} tabindex="0" aria-label=${t("web.ui.log")}>
        ${entries.map((entry, i) => html`<li key=${i} class=${entry.fresh ? "fresh" : ""}>${renderMessage(entry.line, names)}</li>`)}
      </ol>
    </section>`;
}
