// Which games have their own UI module; the others use the generic one.
import * as generic from "../games/generic.js";

export async function loadModule(game) {
  try {
    return await import(`/static/games/${game}.js`);
  } catch (err) {
    return generic;
  }
}
