/* The round form page: the hand of the player who went out is hidden (and not sent), and one card
 * pad follows the hand being entered (handsteps.js). The form works without this script. */
import { CardPad } from "./cardpad.js";
import { Hands } from "./hands.js";
import { HandSteps } from "./handsteps.js";
import { steppers } from "./steppers.js";

/* The dock's height as `--dock` on the form: what a hand brought into view, and the notice above
 * the dock, keep clear of (games.css); it changes as the pad's chips wrap or its keys hide. */
function measureDock(form) {
  const dock = form.querySelector(".round-dock");
  if (!dock || !window.ResizeObserver) return;
  new ResizeObserver(() => {
    form.style.setProperty("--dock", `${Math.ceil(dock.getBoundingClientRect().height)}px`);
  }).observe(dock);
}

for (const form of document.querySelectorAll("form.round-form")) {
  const hands = new Hands(form);
  hands.hideOut();
  form.addEventListener("change", (event) => {
    if (event.target.name === "out") hands.hideOut();
  });
  measureDock(form);
  const pad = form.querySelector(".cardpad");
  if (pad) new HandSteps(hands, new CardPad(pad));
  // Each player's buys this deal, where the rules limit buying (rounds/_buys.html).
  const buys = form.querySelector(".buys-entry");
  if (buys) steppers(buys);
}
