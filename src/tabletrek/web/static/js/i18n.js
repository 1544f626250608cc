// Message catalogs from the server (/api/i18n), the same keys the Python side renders.
import { readText, writeText } from "./store.js";

const LANGS = ["en", "zh-Hant"];
let messages = {};
let lang = "en";

export function currentLang() {
  return lang;
}

export function storedLang() {
  const saved = readText("tt.lang");
  if (LANGS.includes(saved)) return saved;
  return (navigator.language || "").toLowerCase().startsWith("zh") ? "zh-Hant" : "en";
}

/** The catalogs of ``wantLang``, or null when the reader chose another language while they loaded.
 * Two quick switches put two loads in flight, and the one for the language no longer wanted may
 * come back last: it must not replace the catalogs of the one that is, and its page should not draw. */
export async function loadCatalogs(wantLang, domains = []) {
  const want = LANGS.includes(wantLang) ? wantLang : "en";
  const list = ["core", "web", ...domains].join(",");
  const url = `/api/i18n/${want}?domains=${encodeURIComponent(list)}`;
  let found = await fetchCatalogs(url);
  // Without catalogs a page has no words to say even that the server is away, so it asks again
  // (after 0.5 s, 1 s, 2 s … at most 8 s) until the server answers or another language is chosen.
  for (let wait = 500; !found && isWanted(want); wait = Math.min(wait * 2, 8000)) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    found = await fetchCatalogs(url);
  }
  if (!found || !isWanted(want)) return null;
  messages = found;
  lang = want;
  document.documentElement.lang = lang;
  return messages;
}

/** The messages at ``url``, or null when the server could not be reached or did not answer with them. */
async function fetchCatalogs(url) {
  try {
    const resp = await fetch(url);
    const body = resp.ok ? await resp.json() : null;
    return body && body.messages && typeof body.messages === "object" ? body.messages : null;
  } catch {
    return null;
  }
}

export function setLang(value) {
  writeText("tt.lang", value);
}

/** Whether ``value`` is the language the reader asked for last (pages check after each wait). */
export function isWanted(value) {
  return value === storedLang();
}

const FIELD = /\{([A-Za-z0-9_]+)(?:([:!])([^}]*))?\}/g;
const FULL_WIDTH_MARKS = "，。：；！？、（）「」『』";
const isMark = (ch) => ch !== "" && FULL_WIDTH_MARKS.includes(ch);
/** Chinese characters, the ranges of the server's HAN_RANGES (tabletrek/i18n). */
const HAN = /^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{3ffff}]$/u;
const isHan = (ch) => HAN.test(ch);
/** Whether a template's space between a value's edge and the text on its other side goes: beside
 * a full-width mark, or between two Chinese characters (the server's _tight). */
const tight = (valueEdge, otherSide) => isMark(valueEdge) || (isHan(valueEdge) && (isHan(otherSide) || isMark(otherSide)));
/** A text's first and last character (a whole character beyond the first plane too). */
const first = (text) => [...text].slice(0, 1).join("");
const last = (text) => [...text].slice(-1).join("");

/** One field's text: a "," in the spec groups thousands ("$1,500,000"), the one way money is
 * written in both languages; Python's {name!r} quotes a text, as the server's own rendering does. */
function field(value, sep, spec) {
  if (sep === ":" && spec && spec.includes(",") && typeof value === "number") return value.toLocaleString("en-US");
  if (sep === "!" && spec === "r" && typeof value === "string") return `'${value}'`;
  return String(value);
}

/** Python-style {name} and {name:spec} fields. In Chinese, the template's space beside a value
 * goes where the value needs none: beside a full-width mark at its edge ("貪心（玩家2）放棄。", not
 * "貪心（玩家2） 放棄。") or between Chinese characters ("輪到小明"; "輪到 Alice", "玩家1 放棄。"
 * keep theirs), as the server's fill_chinese (tabletrek/i18n) does; the values are left as they are. */
function format(template, args) {
  const pieces = []; // [is a value, text]
  let at = 0;
  for (const m of template.matchAll(FIELD)) {
    const [all, name, sep, spec] = m;
    const known = Object.prototype.hasOwnProperty.call(args, name);
    pieces.push([false, template.slice(at, m.index)], [known, known ? field(args[name], sep, spec) : all]);
    at = m.index + all.length;
  }
  pieces.push([false, template.slice(at)]);
  const chinese = lang === "zh-Hant";
  return pieces.map(([isValue, text], i) => {
    if (isValue || !chinese) return text;
    const before = pieces[i - 1] && pieces[i - 1][0] ? pieces[i - 1][1] : "";
    const after = pieces[i + 1] && pieces[i + 1][0] ? pieces[i + 1][1] : "";
    let out = text;
    if (before && out.startsWith(" ") && tight(last(before), first(text.slice(1) || after))) out = out.slice(1);
    if (after && out.endsWith(" ") && tight(first(after), last(text.slice(0, -1) || before))) out = out.slice(0, -1);
    return out;
  }).join("");
}

/** The singular form ("key_one") when the count is 1, as the server's translate does. */
const PLURAL_ARGS = ["count", "n", "tokens"];
function pluralKey(key, args) {
  for (const name of PLURAL_ARGS) {
    if (args && Object.prototype.hasOwnProperty.call(args, name)) {
      const value = typeof args[name] === "object" ? null : Number(args[name]);
      return value === 1 && messages[`${key}_one`] !== undefined ? `${key}_one` : key;
    }
  }
  return key;
}

/** The seats' names for this reader: a seat nobody named reads "玩家2" or "貪心（玩家2）" in Chinese
 * (the server's names are English, the table's own), unless that is another seat's nickname. The
 * server says the same in the moves it describes (tables.py LiveTable.names). */
export function shownNames(names, table) {
  if (!names || !table || !table.seats) return names;
  const seats = table.seats;
  const nicknames = new Set(seats.filter((s) => s.nickname).map((s) => s.nickname.toLowerCase()));
  return names.map((name, i) => {
    const seat = seats.find((s) => s.seat === i);
    if (!seat || seat.nickname) return name;
    const own = t("core.seat", { n: i + 1 });
    const local = seat.bot ? t("web.ui.bot_seat", { bot: botShort(table.domain, seat.bot), seat: own }) : own;
    return nicknames.has(local.toLowerCase()) ? name : local;
  });
}

export function seatName(seat, names) {
  if (names && seat >= 0 && seat < names.length && names[seat]) return names[seat];
  return t("core.seat", { n: seat + 1 });
}

function resolve(args, names) {
  const out = {};
  for (const [name, value] of Object.entries(args || {})) {
    if (value && typeof value === "object" && "$seat" in value) out[name] = seatName(Number(value.$seat), names);
    else if (value && typeof value === "object" && "$t" in value) {
      const inner = value.args && typeof value.args === "object" ? value.args : {};
      out[name] = t(String(value.$t), inner, names);
    }
    else if (Array.isArray(value)) out[name] = joinList(value.map(String));
    else out[name] = value;
  }
  return out;
}

export function t(key, args = {}, names = null) {
  const template = messages[pluralKey(key, args)];
  if (template === undefined) return key;
  return format(template, resolve(args, names));
}

export function has(key) {
  return messages[key] !== undefined;
}

/** A game's word for one of its own things, from its catalog ("<domain>.lobby.option.cards",
 * "<domain>.bot.greedy"), else the web catalog's word for what every game shares ("web.bot.random"),
 * else ``fallback``: adding a game never touches the web catalog. */
export function gameLabel(domain, key, fallback) {
  for (const full of [`${domain}.${key}`, `web.${key}`]) {
    if (messages[full] !== undefined) return t(full);
  }
  return fallback;
}

export function botLabel(domain, bot) {
  return gameLabel(domain, `bot.${bot}`, bot);
}

/** A bot's short name, which the seat it plays goes by ("Greedy"; i18n bot_short on the server). */
export function botShort(domain, bot) {
  return gameLabel(domain, `bot_short.${bot}`, bot);
}

/** Items of a list in running text: "P1, P3"; in Chinese "玩家1、玩家3" (join_list on the server). */
export function joinList(items) {
  return items.join(t("core.list_separator"));
}

/** A remark set after a name: "river (agent)"; in Chinese "河（特工）" (aside on the server). */
export function aside(text) {
  return t("core.text.aside", { text });
}

/** A {key, args} message (an event or an error) as a sentence. */
export function render(message, names) {
  return t(message.key, message.args || {}, names);
}
