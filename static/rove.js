/* One Tab stop for a group of buttons: the arrow keys, Home and End move within it, up and down
 * by where the keys sit on screen (the rows wrap on a narrow tablet). */

// Keys whose tops are this close (in CSS pixels) sit on one row.
const SAME_ROW_PX = 4;

/* The key in the row above or below `here` nearest to it across; null when there is no row. */
function across(keys, here, down) {
  let row = null;
  let best = null;
  for (const key of keys) {
    const box = key.getBoundingClientRect();
    const beyond = down ? box.top > here.top + SAME_ROW_PX : box.top < here.top - SAME_ROW_PX;
    if (!beyond) continue;
    const nearer = down ? box.top < row - SAME_ROW_PX : box.top > row + SAME_ROW_PX;
    if (row === null || nearer) {
      row = box.top;
      best = null;
    }
    if (Math.abs(box.top - row) > SAME_ROW_PX) continue;
    const gap = Math.abs(box.left + box.width / 2 - (here.left + here.width / 2));
    if (best === null || gap < best.gap) best = { key, gap };
  }
  return best ? best.key : null;
}

/* Make `group` one Tab stop over the buttons `keys()` returns (asked afresh each time: keys come
 * and go). Returns `settle(key)`, which makes `key` (or the first live key) the group's stop. */
export function rove(group, keys) {
  function live() {
    return keys().filter((key) => !key.disabled && key.offsetParent !== null);
  }
  function settle(current) {
    const all = live();
    const stop = all.includes(current) ? current : all[0];
    for (const key of keys()) key.tabIndex = key === stop ? 0 : -1;
  }
  group.addEventListener("focusin", (event) => {
    if (keys().includes(event.target)) settle(event.target);
  });
  group.addEventListener("keydown", (event) => {
    const all = live();
    const at = all.indexOf(document.activeElement);
    if (at < 0) return;
    const moves = {
      ArrowRight: () => all[Math.min(at + 1, all.length - 1)],
      ArrowLeft: () => all[Math.max(at - 1, 0)],
      Home: () => all[0],
      End: () => all[all.length - 1],
      ArrowDown: () => across(all, all[at].getBoundingClientRect(), true) || all[at],
      ArrowUp: () => across(all, all[at].getBoundingClientRect(), false) || all[at],
    };
    if (!Object.hasOwn(moves, event.key)) return;
    event.preventDefault();
    const next = moves[event.key]();
    settle(next);
    next.focus();
  });
  return settle;
}
