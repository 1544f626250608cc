// Per-browser preferences at a table (kept in localStorage): the turn sound (off by default) and
// Double Crossing's automatic answers. Also the "your turn" sound itself, made with Web Audio.
import { readObject, writeObject } from "./store.js";

const KEY = "tt.prefs";
const stored = readObject(KEY);

export const prefs = {
  sound: stored.sound === true,
  autoPass: stored.autoPass === true,
  autoEnd: stored.autoEnd !== false,
  // milliseconds before an automatic answer; one number for every case, so its timing tells nothing
  // (not in the page: a test or a patient player may set it in localStorage)
  autoDelay: Number.isFinite(stored.autoDelay) && stored.autoDelay >= 0 ? Math.min(stored.autoDelay, 10000) : null,
};

export function setPref(name, value) {
  prefs[name] = value;
  writeObject(KEY, prefs);
}

let audio = null;

function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const now = audio.currentTime;
    for (const [i, freq] of [660, 880].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.11);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.12);
    }
  } catch (err) {
    // no audio device: the title and the turn bar still tell the player
  }
}

/** When it has just become this player's turn: the optional sound. */
export function notifyTurn(model, before) {
  const mine = model.legal.length > 0 && !model.over;
  const was = before ? before.legal.length > 0 && !before.over : false;
  if (mine && !was && prefs.sound) beep();
}
