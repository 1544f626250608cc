// Which page module shows a game: its own when the server names one (the table's "ui": the module
// and stylesheet the game's spec declares, served from /ui/<game>/), else the generic one.
import * as generic from "./generic.js";

/** Adds a stylesheet once and waits for it, so the game's page is never drawn unstyled. */
function addStyle(href) {
  if (document.querySelector(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    // a stylesheet that fails to load leaves the page plain, never blank
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}

export async function loadModule(ui) {
  if (!ui || !ui.module) return generic;
  try {
    const [module] = await Promise.all([import(ui.module), ui.style ? addStyle(ui.style) : null]);
    return module;
  } catch (err) {
    console.error(err);
    return generic;
  }
}

/** "?plain" in the address: the generic view even for a game with its own (plain text, any game). */
export function plainView() {
  return new URLSearchParams(location.search).has("plain");
}
