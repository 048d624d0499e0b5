/* A hand's penalty as it is entered, on the round form (hands.js) and on a phone
 * (phonehand.js): its points as typed, or what its cards count by the game's rule set; and when
 * the save would refuse the hand, "?" and why, in the server's words (`data-words`). */
import { said } from "./words.js";

/* Points typed: the number, or "?" for anything else. */
export function typedPoints(typed) {
  const text = typed.trim();
  return /^[0-9]+$/.test(text) ? String(Number(text)) : "?";
}

/* What a cards text counts, [penalty, why]: `notation` reads the cards (cards.js),
 * `penalties` are each rank's and the joker's, `copies` each card's copies in the game's packs
 * (or null); `words.not_card`, a token that is not a card; `words.over`, a card the packs hold
 * fewer of than this hand. */
export function cardsPenalty(notation, text, { penalties, copies, words }) {
  const unread = notation.unread(text);
  if (unread) return ["?", said(words.not_card, { card: unread })];
  const over = copies && notation.overCopies(text, copies);
  if (over) return ["?", said(words.over, { card: over })];
  return [notation.penalty(text, penalties), ""];
}

/* The penalty in its output, and why it cannot be counted, when it cannot, in smaller type. */
export function showPenalty(output, penalty, why) {
  output.textContent = penalty;
  if (!why) return;
  const reason = document.createElement("span");
  reason.className = "penalty-why";
  reason.textContent = ` — ${why}`;
  output.append(reason);
}
