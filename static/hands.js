/* The round form's hands, read from the form's own fields: who went out (its "Who went out?"
 * choice), each hand's cards, "Points" toggle and points, and whether the hand is counted in
 * points. The hand of the player who went out is hidden and its fields disabled, so that it is
 * not sent; a hand counted in points shows its points field instead of its cards. */

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

  /* The hand's penalty beside it: its points as typed, or what its cards count (`notation`,
   * `penalties`: the server's, see cards.js); a card the game's packs hold fewer of (`copies`)
   * is named instead. */
  showPenalty(hand, notation, penalties, copies) {
    const parts = this.parts(hand);
    if (!parts.penalty) return;
    if (this.isCounted(hand)) {
      const typed = parts.points.value.trim();
      parts.penalty.textContent = /^[0-9]+$/.test(typed) ? String(Number(typed)) : "?";
    } else {
      const over = copies && notation.overCopies(parts.cards.value, copies);
      parts.penalty.textContent = over
        ? `? — more ${over} than this game's packs hold`
        : notation.penalty(parts.cards.value, penalties);
    }
  }
}
