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

/* "Went down and out in one turn", where the rules give a bonus for it: only a player out can
 * have, so it is off and cannot be ticked while nobody went out. */
function oneTurnFollowsOut(form, toggle) {
  if (!toggle) return;
  const out = form.querySelector('input[name="out"]:checked');
  const nobody = Boolean(out) && out.value === "nobody";
  if (nobody) toggle.checked = false;
  toggle.disabled = nobody;
}

for (const form of document.querySelectorAll("form.round-form")) {
  const hands = new Hands(form);
  hands.hideOut();
  const oneTurn = form.querySelector(".one-turn-choice input");
  oneTurnFollowsOut(form, oneTurn);
  form.addEventListener("change", (event) => {
    if (event.target.name === "out") {
      hands.hideOut();
      oneTurnFollowsOut(form, oneTurn);
    }
  });
  measureDock(form);
  const pad = form.querySelector(".cardpad");
  if (pad) new HandSteps(hands, new CardPad(pad));
  // Each player's buys this deal, where the rules limit buying (rounds/_buys.html).
  const buys = form.querySelector(".buys-entry");
  if (buys) steppers(buys);
}
