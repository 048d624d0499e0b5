/* The "New game" page: seat reordering, and the seats the chosen rules have: as many as their
 * most players (the option's `data-max`), with their limits said beside the seats (`data-min`,
 * `data-max`). The page works without this script. */
import { word } from "./words.js";

function setupNewGame(form) {
  const rows = Array.prototype.slice.call(form.querySelectorAll(".seat"));
  const rules = form.querySelector(".profile-select");
  const limits = form.querySelector(".seat-limits");
  const randomDealer = form.querySelector('input[name="first_dealer"][value="random"]');

  function parts(row) {
    return { name: row.querySelector(".seat-name"), dealer: row.querySelector('input[name="first_dealer"]') };
  }

  function swap(a, b) {
    const pa = parts(a), pb = parts(b);
    const name = pa.name.value;
    pa.name.value = pb.name.value;
    pb.name.value = name;
    const checked = pa.dealer.checked;
    pa.dealer.checked = pb.dealer.checked;
    pb.dealer.checked = checked;
    // As if typed: the draft of the form (drafts.js) follows.
    [pa.name, pb.name].forEach(function (el) {
      el.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }

  function visibleRows() {
    return rows.filter(function (row) { return !row.hidden; });
  }

  function applyRules() {
    const option = rules.options[rules.selectedIndex];
    const max = Number(option.getAttribute("data-max")) || rows.length;
    const min = Number(option.getAttribute("data-min")) || max;
    if (limits) {
      limits.textContent = min === max
        ? word("seats_exactly", { players: max })
        : word("seats_between", { least: min, most: max });
      limits.hidden = false;
    }
    rows.forEach(function (row, index) {
      const off = index >= max;
      row.hidden = off;
      const p = parts(row);
      p.name.disabled = off;
      p.dealer.disabled = off;
      if (off && p.dealer.checked) randomDealer.checked = true;
    });
    const hint = form.querySelector(".extra-hint");
    if (hint) hint.hidden = true;
    const shown = visibleRows();
    shown.forEach(function (row, index) {
      row.querySelector('[data-move="-1"]').disabled = index === 0;
      row.querySelector('[data-move="1"]').disabled = index === shown.length - 1;
    });
  }

  form.querySelectorAll("[data-move]").forEach(function (button) {
    button.hidden = false;
  });
  form.addEventListener("click", function (event) {
    const button = event.target.closest("[data-move]");
    if (!button) return;
    const shown = visibleRows();
    const row = button.closest(".seat");
    const index = shown.indexOf(row);
    const other = shown[index + Number(button.getAttribute("data-move"))];
    if (!other) return;
    swap(row, other);
    const twin = other.querySelector('[data-move="' + button.getAttribute("data-move") + '"]');
    (twin && !twin.disabled ? twin : parts(other).name).focus();
  });
  rules.addEventListener("change", applyRules);
  // The rule set editor (ruleeditor.js) says when the edited rules seat other table sizes.
  form.addEventListener("rules-seats", applyRules);
  applyRules();
}

function start() {
  document.querySelectorAll("form.new-game").forEach(setupNewGame);
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
