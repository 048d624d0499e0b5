/* The round form's hands, read from the form's own fields: who went out (its "Who went out?"
 * choice), each hand's cards, "Points" toggle and points, and whether the hand is counted in
 * points. The hand of the player who went out is hidden and its fields disabled, so that it is
 * not sent; a hand counted in points shows its points field instead of its cards. */
import { cardsPenalty, showPenalty, typedPoints } from "./penalty.js";
import { said, wordsOf } from "./words.js";

export class Hands {
  constructor(form) {
    this.form = form;
    this.all = [...form.querySelectorAll(".hand")];
  }

  /* The seat of the player who went out, as the form's field holds it ("nobody" when nobody
   * did); null before it is picked. */
  wentOut() {
    const chosen = this.form.querySelector('input[name="out"]:checked');
    return chosen ? chosen.value : null;
  }

  isOut(hand) {
    return hand.dataset.seat === this.wentOut();
  }

  /* The hands still to enter: everyone's but the player's who went out. */
  open() {
    return this.all.filter((hand) => !this.isOut(hand));
  }

  /* The open hand after `hand`, or null after the last. */
  after(hand) {
    const open = this.open();
    const at = open.indexOf(hand);
    return at >= 0 && at + 1 < open.length ? open[at + 1] : null;
  }

  /* The hand `element` is part of, or null. */
  of(element) {
    const hand = element && element.closest(".hand");
    return this.all.includes(hand) ? hand : null;
  }

  parts(hand) {
    return {
      cards: hand.querySelector(".cards-input"),
      toggle: hand.querySelector(".points-toggle"),
      points: hand.querySelector(".points-input"),
      name: hand.querySelector(".hand-name").textContent.trim(),
      penalty: hand.querySelector("[data-penalty-for]"),
    };
  }

  isCounted(hand) {
    const toggle = this.parts(hand).toggle;
    return Boolean(toggle && toggle.checked);
  }

  /* Hide the hand of the player who went out, and keep its fields from being sent. */
  hideOut() {
    for (const hand of this.all) {
      const out = this.isOut(hand);
      hand.hidden = out;
      for (const input of hand.querySelectorAll("input")) input.disabled = out;
    }
  }

  /* Show the hand's points field when it is counted in points, else its cards field. */
  showCounted(hand) {
    const counted = this.isCounted(hand);
    const parts = this.parts(hand);
    hand.classList.toggle("is-counted", counted);
    if (parts.points) parts.points.closest(".hand-points").hidden = !counted;
    parts.cards.closest(".hand-cards").hidden = counted;
  }

  /* Each hand's penalty beside it (penalty.js); when no one hand holds more of a card than the
   * game's packs (`copies`), the open hands may together: those hands named. */
  showPenalties(notation, penalties, copies) {
    const words = wordsOf(this.form);
    const counting = { penalties, copies, words };
    const open = this.open().filter((hand) => !this.isCounted(hand));
    const texts = open.map((hand) => this.parts(hand).cards.value);
    // Each card the open hands hold too many of together, and the hands that hold it.
    const together = (copies ? notation.allOver(texts.join(" "), copies) : []).map((card) => ({
      card,
      holding: open.filter((hand, at) => notation.holds(texts[at], card)),
    }));
    for (const hand of this.all) {
      const parts = this.parts(hand);
      if (!parts.penalty) continue;
      if (this.isCounted(hand)) {
        showPenalty(parts.penalty, typedPoints(parts.points.value));
        continue;
      }
      const [penalty, why] = cardsPenalty(notation, parts.cards.value, counting);
      const shared = !why && together.find((each) => each.holding.length > 1 && each.holding.includes(hand));
      if (shared) {
        const names = shared.holding.map((each) => this.parts(each).name).join(", ");
        showPenalty(parts.penalty, "?", said(words.over_together, { card: shared.card, names }));
      } else {
        showPenalty(parts.penalty, penalty, why);
      }
    }
  }
}
