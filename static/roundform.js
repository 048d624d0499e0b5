/* The round form page: the hand of the player who went out is hidden (and not sent), and one card
 * pad follows the hand being entered (handsteps.js). The form works without this script. */
import { CardPad } from "./cardpad.js";
import { Hands } from "./hands.js";
import { HandSteps } from "./handsteps.js";

for (const form of document.querySelectorAll("form.round-form")) {
  const hands = new Hands(form);
  hands.hideOut();
  form.addEventListener("change", (event) => {
    if (event.target.name === "out") hands.hideOut();
  });
  const pad = form.querySelector(".cardpad");
  if (pad) new HandSteps(hands, new CardPad(pad));
}
