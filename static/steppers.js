/* − and + beside each number control (`input.stepper`), as big as a fingertip: a tap steps the
 * number within the input's min and max and tells the form (an `input` event). The number stays
 * typed text too: without this script it is typed. The label a button speaks comes from the
 * input's data-say ("the number" without it); data-blank is what an empty input counts as. */
import { word } from "./words.js";

function labelOf(input) {
  return input.getAttribute("data-say") || word("the_number");
}

export function addSteppers(root) {
  for (const input of root.querySelectorAll("input.stepper")) {
    if (input.parentElement.querySelector(".step")) continue;
    for (const [sign, delta, words] of [["−", -1, "one_less"], ["+", 1, "one_more"]]) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "secondary step";
      button.textContent = sign;
      button.setAttribute("data-step", String(delta));
      button.setAttribute("aria-label", word(words, { what: labelOf(input) }));
      if (delta < 0) input.before(button);
      else input.after(button);
    }
  }
}

export function step(button) {
  const input = button.parentElement.querySelector("input.stepper");
  const delta = Number(button.getAttribute("data-step"));
  const min = input.min === "" ? -Infinity : Number(input.min);
  const max = input.max === "" ? Infinity : Number(input.max);
  // An empty input counts as its data-blank, else as nothing yet: + gives the least, − the most.
  const blank = input.getAttribute("data-blank");
  const empty = blank === null ? (delta > 0 ? min - 1 : max + 1) : Number(blank);
  const now = input.value.trim() === "" ? empty : Number(input.value);
  if (Number.isNaN(now)) return;
  input.value = String(Math.min(max, Math.max(min, now + delta)));
  input.dispatchEvent(new Event("input", { bubbles: true }));
}


/* Steppers for every number control under `root`, their taps answered there. */
export function steppers(root) {
  addSteppers(root);
  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-step]");
    if (button) step(button);
  });
}
