// What this browser remembers for the site (localStorage): the language, the nickname, each
// table's seat token and host secrets, the table preferences. A browser may refuse storage (all
// cookies blocked, a sandboxed frame, a full quota) or hold a value another version or a hand wrote:
// the pages then work from memory for this visit rather than failing to draw.
const memory = new Map();

function storage() {
  try {
    return window.localStorage; // the getter itself throws where storage is refused
  } catch {
    return null;
  }
}

/** Whether what is written now will still be here after a reload or on another page. */
export function persistent() {
  const box = storage();
  if (!box) return false;
  try {
    box.setItem("tt.probe", "1");
    box.removeItem("tt.probe");
    return true;
  } catch {
    return false;
  }
}

export function readText(key) {
  if (memory.has(key)) return memory.get(key);
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Kept in memory for this page in any case; true when also stored for later pages. */
export function writeText(key, value) {
  memory.set(key, value);
  try {
    const box = storage();
    if (!box) return false;
    box.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** A stored JSON object, or {} when there is none or what is there is not an object. */
export function readObject(key) {
  return parsedObject(readText(key));
}

/** ``text`` as a JSON object, or {} when it is empty, not JSON or not an object. */
export function parsedObject(text) {
  if (!text) return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

export function writeObject(key, value) {
  return writeText(key, JSON.stringify(value));
}

/** What the pages keep for a table: its key in storage and the fields each may hold. */
export function tableKey(tableId) {
  return `tt.table.${tableId}`;
}

const ENTRY_TEXTS = ["token", "host", "claim"];

/** A table's entry as read from storage or a link: only known fields, each of the right type. */
export function tableEntry(raw) {
  const entry = {};
  for (const name of ENTRY_TEXTS) {
    if (typeof raw[name] === "string" && raw[name]) entry[name] = raw[name];
  }
  const invites = raw.invites;
  if (invites && typeof invites === "object" && !Array.isArray(invites)) {
    entry.invites = Object.fromEntries(Object.entries(invites).filter(([, code]) => typeof code === "string"));
  }
  return entry;
}

/** The address of a table page that will know ``entry`` (this browser's seat token and host
 * secrets there). Where storage is refused the entry rides in the address's fragment, which no
 * request carries and the table page removes from the address bar at once (as it does a seat link). */
export function tableHref(tableId, entry) {
  const href = `/t/${encodeURIComponent(tableId)}`;
  if (writeObject(tableKey(tableId), entry)) return href;
  return `${href}#entry=${encodeURIComponent(JSON.stringify(entry))}`;
}
