// Pieces slide to where they went (FLIP: First, Last, Invert, Play). Before the page renders a
// move, the place of every piece marked data-flip is noted; after it renders, a piece that moved
// (the same node in a new place: a hand closing up) or that reappeared elsewhere (a card played
// from the hand onto a pile, a tile onto a train: same data-flip key, new node) is moved back to
// where it was with a transform and slides to its new place. Nothing moves when the system asks
// for reduced motion.
const DURATION = 260;
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Where every marked piece is now: by node, and by key for pieces that will be drawn anew. */
export function measure(root) {
  const byNode = new Map();
  const byKey = new Map();
  if (!root || reduced.matches) return { byNode, byKey };
  for (const node of root.querySelectorAll("[data-flip]")) {
    const rect = node.getBoundingClientRect();
    if (!rect.width && !rect.height) continue;
    byNode.set(node, rect);
    const key = node.dataset.flip;
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(rect);
  }
  return { byNode, byKey };
}

/** Slide what moved since ``before`` (from measure) to where it is now. */
export function play(root, before) {
  if (!root || reduced.matches || !before.byNode.size) return 0;
  const stayed = new Set();
  for (const node of root.querySelectorAll("[data-flip]")) if (before.byNode.has(node)) stayed.add(before.byNode.get(node));
  // the old places of pieces whose node is gone: where a piece drawn anew came from
  const gone = new Map();
  for (const [key, rects] of before.byKey) {
    const left = rects.filter((r) => !stayed.has(r));
    if (left.length) gone.set(key, left);
  }
  let started = 0;
  for (const node of root.querySelectorAll("[data-flip]")) {
    let from = before.byNode.get(node);
    if (!from) {
      const rects = gone.get(node.dataset.flip);
      from = rects && rects.shift();
    }
    if (!from) continue;
    const to = node.getBoundingClientRect();
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
      duration: DURATION,
      easing: "ease-out",
      id: "flip",
    });
    started += 1;
  }
  return started;
}
