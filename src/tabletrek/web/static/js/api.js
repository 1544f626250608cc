// Requests to the server's JSON API. One that never reaches the server (offline, a restart) or
// gets an answer that is not the API's (a proxy's error page) reads as a refusal with a reason,
// as the API's own refusals do, so a page says what went wrong instead of stopping where it was.
import { el } from "./dom.js";
import { t } from "./i18n.js";

const TRANSIENT = new Set(["web.error.unreachable", "web.error.bad_reply"]);

/** [ok, body]: the API's JSON answer, or a {key, args} refusal naming what went wrong. */
export async function requestJson(url, init = {}) {
  let resp;
  try {
    resp = await fetch(url, init);
  } catch {
    return [false, { key: "web.error.unreachable", args: {} }];
  }
  try {
    const body = await resp.json();
    if (body && typeof body === "object" && !Array.isArray(body)) return [resp.ok, body];
  } catch {
    // not JSON: a gateway or proxy answered for the server
  }
  return [false, { key: "web.error.bad_reply", args: { status: resp.status } }];
}

/** The refusal ``body`` in the reader's language. */
export function reason(body) {
  return t(body.key, body.args || {});
}

/** Whether asking again may work: the server was not reached, not a refusal of the request. */
export function transient(body) {
  return TRANSIENT.has(body.key);
}

/** A page that could not load: a heading (and the tab's title) saying so, why, a button to ask
 * again where that may help, and a way on to the lobby (``home``: not from the lobby itself). */
export function failure(body, retry, { home = true } = {}) {
  document.title = `${t("web.ui.not_opened")} — tabletrek`;
  return el(
    "div",
    { id: "failure" },
    el("h1", {}, t("web.ui.not_opened")),
    el("p", { class: "error", role: "alert" }, reason(body)),
    transient(body) ? el("button", { type: "button", id: "retry", onclick: retry }, t("web.ui.try_again")) : null,
    home ? el("p", {}, el("a", { href: "/", id: "to-lobby" }, t("web.ui.to_lobby"))) : null,
  );
}
