/* "Played here before" chips on New game: a tap seats that name in the first empty seat shown;
 * a name already at the table shows pressed, and a second tap takes it off again. Without this
 * script the chips stay hidden and names are typed. */
import { word } from "./words.js";

function fold(name) {
  return name.normalize("NFKC").toLocaleLowerCase().trim().replace(/\s+/g, " ");
}

function setup(box) {
  const form = box.closest("form");
  const status = box.querySelector(".chip-status");
  const chips = Array.prototype.slice.call(box.querySelectorAll(".chip"));

  function seats() {
    return Array.prototype.slice.call(form.querySelectorAll(".seat-name")).filter(function (input) {
      return !input.disabled && !input.closest(".seat").hidden;
    });
  }

  function seated(name) {
    const key = fold(name);
    return seats().filter(function (input) { return fold(input.value) === key; })[0] || null;
  }

  function refresh() {
    chips.forEach(function (chip) {
      chip.setAttribute("aria-pressed", seated(chip.getAttribute("data-name")) ? "true" : "false");
    });
  }

  box.addEventListener("click", function (event) {
    const chip = event.target.closest(".chip");
    if (!chip) return;
    const name = chip.getAttribute("data-name");
    const taken = seated(name);
    if (taken) {
      taken.value = "";
      status.textContent = word("left_table", { name });
    } else {
      const empty = seats().filter(function (input) { return input.value.trim() === ""; })[0];
      if (!empty) {
        status.textContent = word("seats_taken");
        return;
      }
      empty.value = name;
      status.textContent = word("sits_in", {
        name,
        seat: empty.closest(".seat").querySelector(".seat-number").textContent,
      });
    }
    refresh();
  });
  form.addEventListener("input", refresh);
  form.addEventListener("change", refresh);
  form.addEventListener("click", function (event) {
    if (event.target.closest("[data-move]")) refresh();
  });
  box.hidden = false;
  refresh();
}

document.querySelectorAll(".player-chips").forEach(setup);
