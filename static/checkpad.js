/* The rules check page: one card pad serves every cards field of the question (cardpad.js), and
 * the buy counts step with − and + (steppers.js). */
import { CardPad } from "./cardpad.js";
import { addSteppers, steppers } from "./steppers.js";

for (const pad of document.querySelectorAll(".cardpad")) new CardPad(pad);

// The buy counts: − and + beside each, and beside those of seats the table gains (referee.js).
const buys = document.querySelector(".rules-form");
if (buys) {
  steppers(buys);
  buys.addEventListener("seats-changed", () => addSteppers(buys));
}
