// Rendering for every page: Preact + htm (vendored ES modules, no build step), seat colours,
// money in one format, a page that could not load, and the tooltip bubble shown on hover,
// keyboard focus or a long press.
import { h, render, Fragment } from "../vendor/preact.module.js";
import htm from "../vendor/htm.module.js";
import { failure } from "./api.js";

export const html = htm.bind(h);
export { h, render, Fragment };

/** ``failure(body, retry)`` for a page Preact draws: the box is Preact's, so a later draw of the
 * page replaces it, and its content is the one builder every page shows a failure with. */
export function Failure({ body, retry }) {
  return html`<div ref=${(box) => box && box.replaceChildren(failure(body, retry))}></div>`;
}

/** Seat colours: distinct, legible on the light table, and named for people who cannot tell them apart. */
export const SEAT_COLORS = ["#c62828", "#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f"];

export function seatColor(seat) {
  return seat === null || seat === undefined || seat < 0 ? "#666" : SEAT_COLORS[seat % SEAT_COLORS.length];
}

/** Money the same way everywhere, in both languages: "$1,500,000" (a minus sign before the dollar). */
export function money(n) {
  const value = Number(n);
  const text = `$${Math.abs(value).toLocaleString("en-US")}`;
  return value < 0 ? `−${text}` : text;
}

/** Whether the player asked for less motion; animations are then switched off in CSS as well. */
export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

let bubble = null;
let hideTimer = null;
let pressTimer = null;

function tipOf(target) {
  const host = target && target.closest ? target.closest("[data-tip]") : null;
  return host && host.dataset.tip ? host : null;
}

function show(host) {
  if (!bubble) {
    bubble = document.createElement("div");
    bubble.id = "tip";
    bubble.setAttribute("role", "tooltip");
    document.body.append(bubble);
  }
  clearTimeout(hideTimer);
  bubble.textContent = host.dataset.tip;
  bubble.hidden = false;
  const box = host.getBoundingClientRect();
  const width = Math.min(288, window.innerWidth - 16);
  bubble.style.maxWidth = `${width}px`;
  const left = Math.max(8, Math.min(window.innerWidth - width - 8, box.left + box.width / 2 - width / 2));
  bubble.style.left = `${left + window.scrollX}px`;
  const below = box.bottom + 8 + window.scrollY;
  bubble.style.top = `${below}px`;
}

/** A move changes the table: an explanation left open would describe a piece that moved. */
export function hideTip() {
  hide();
}

function hide(delay = 0) {
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => bubble && (bubble.hidden = true), delay);
}

/** One set of listeners for the whole page: any element with data-tip explains itself. */
export function installTips() {
  if (installTips.done) return;
  installTips.done = true;
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType === "touch") return;
    const host = tipOf(e.target);
    if (host) show(host);
    else hide(100);
  });
  document.addEventListener("focusin", (e) => {
    const host = tipOf(e.target);
    if (host) show(host);
    else hide();
  });
  document.addEventListener("focusout", () => hide(100));
  // a long press on a phone explains the piece without playing it (a short tap still plays)
  document.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "touch") return;
    const host = tipOf(e.target);
    clearTimeout(pressTimer);
    if (!host) {
      hide();
      return;
    }
    pressTimer = setTimeout(() => {
      show(host);
      hide(3500);
    }, 450);
  });
  document.addEventListener("pointerup", () => clearTimeout(pressTimer));
  document.addEventListener("keydown", (e) => e.key === "Escape" && hide());
}
