/* The rules check page: one card pad serves every cards field of the question (cardpad.js). */
import { CardPad } from "./cardpad.js";

for (const pad of document.querySelectorAll(".cardpad")) new CardPad(pad);
