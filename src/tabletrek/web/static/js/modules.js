// Which page module shows a game: its own (games/<name>.js) when the server says it has one.
import * as generic from "../games/generic.js";

export async function loadModule(game, hasOwn) {
  if (!hasOwn) return generic;
  try {
    return await import(`/static/games/${game}.js`);
  } catch (err) {
    console.error(err);
    return generic;
  }
}

/** "?plain" in the address: the generic view even for a game with its own (plain text, any game). */
export function plainView() {
  return new URLSearchParams(location.search).has("plain");
}
