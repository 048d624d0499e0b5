/* The round form's stepper: one card pad (cardpad.js) follows the hand being entered. A tap on a
 * hand picks it, the pad's "Cards for" list picks any hand by keyboard, "Next" steps to the next
 * hand still to enter (the player who went out is skipped) and then to Save. A hand counted in
 * points is typed in its number field instead; the pad's "Points" key switches the hand it serves,
 * so each hand is one Tab stop (its own toggle leaves the Tab order) and Save is a few Tabs from
 * the first hand even with 8 players. */
import { block, key } from "./cardpad.js";
import { word } from "./words.js";

export class HandSteps {
  /* `hands`: the form's Hands (hands.js); `pad`: its CardPad, whose `data-penalties` are each
   * rank's and the joker's penalty, from the game's rule set. */
  constructor(hands, pad) {
    this.hands = hands;
    this.pad = pad;
    this.form = hands.form;
    this.penalties = JSON.parse(pad.element.dataset.penalties);
    // Each card's copies and the jokers in this game's packs (`data-copies`), for the penalty.
    this.copies = pad.element.dataset.copies ? JSON.parse(pad.element.dataset.copies) : null;
    this.build();
    pad.onRender((target) => this.show(hands.of(target)));
    this.listen();
    for (const hand of hands.all) {
      hands.showCounted(hand);
      const toggle = hands.parts(hand).toggle;
      if (toggle) toggle.tabIndex = -1;
    }
    this.form.classList.add("has-cardpad");
    const first = hands.open()[0];
    if (first) this.pick(first);
  }

  build() {
    // "Cards for <hand>": a list of the hands, so a keyboard picks any hand for the pad too.
    this.head = block("p", "pad-who");
    this.lead = block("label");
    this.lead.htmlFor = "pad-hand";
    this.list = block("select", "pad-hand");
    this.list.id = "pad-hand";
    this.hands.all.forEach((hand, index) => {
      const option = block("option", null, this.hands.parts(hand).name);
      option.value = String(index);
      this.list.append(option);
    });
    this.said = block("span", "visually-hidden");
    this.said.setAttribute("aria-live", "polite");
    this.head.append(this.lead, this.list, this.said);
    // The hand's "Points" toggle, from the pad: pressed while the hand is counted in points.
    this.mode = key(word("points"), null, "secondary pad-points");
    this.mode.setAttribute("aria-pressed", "false");
    this.counted = block("p", "pad-counted hint");
    this.counted.hidden = true;
    this.pad.lead(this.head, this.mode, this.counted);
    this.next = key(word("next"), null, "pad-next");
    this.pad.tool(this.next);
  }

  listen() {
    const { form, hands } = this;
    this.mode.addEventListener("click", () => this.switchPoints());
    this.next.addEventListener("click", () => this.step());
    this.list.addEventListener("change", () => {
      const hand = hands.all[Number(this.list.value)];
      this.pick(hand);
      hand.scrollIntoView({ block: "nearest" });
    });
    form.addEventListener("focusin", (event) => {
      const hand = hands.of(event.target);
      if (hand && !event.target.classList.contains("cards-input")) this.pick(hand);
    });
    form.addEventListener("click", (event) => {
      // A tap on a player's name picks the hand for the pad without opening the keyboard.
      if (event.target.closest(".hand-name label")) event.preventDefault();
      const hand = hands.of(event.target);
      if (hand && hand !== this.current()) this.pick(hand);
    });
    form.addEventListener("input", (event) => {
      if (hands.of(event.target)) this.showPenalties();
    });
    form.addEventListener("change", (event) => {
      if (event.target.classList.contains("points-toggle")) this.toggled(event);
      else if (event.target.name === "out") this.wentOut();
    });
  }

  current() {
    return this.hands.of(this.pad.target);
  }

  pick(hand) {
    this.pad.aim(this.hands.parts(hand).cards);
  }

  /* The pad's "Points" key: the hand's own toggle, switched. */
  switchPoints() {
    const { toggle, points } = this.hands.parts(this.current());
    toggle.checked = !toggle.checked;
    toggle.dispatchEvent(new Event("change", { bubbles: true }));
    // Counted: the number is typed next (the numeric keypad opens); cards: the pad is ready.
    if (toggle.checked) points.focus();
  }

  toggled(event) {
    const hand = this.hands.of(event.target);
    this.hands.showCounted(hand);
    if (hand !== this.current()) this.pick(hand);
    else this.pad.render();
    // A tap on "Points" opens the number keypad at once; the draft's restore does not.
    if (event.target.checked && event.isTrusted) this.hands.parts(hand).points.focus();
  }

  /* Who went out changed: the pad leaves that player's hand for the next one still to enter. */
  wentOut() {
    const active = this.current();
    if (this.hands.isOut(active)) this.pick(this.hands.after(active) || this.hands.open()[0] || active);
    else this.pad.render();
  }

  /* "Next": the next hand still to enter, or the Save button after the last one. */
  step() {
    const then = this.hands.after(this.current());
    if (then) {
      this.pick(then);
      if (this.hands.isCounted(then)) this.hands.parts(then).points.focus();
      then.scrollIntoView({ block: "nearest" });
      this.pad.element.scrollIntoView({ block: "nearest" });
      return;
    }
    const save = this.form.querySelector('[type="submit"]');
    if (save) {
      save.focus();
      save.scrollIntoView({ block: "nearest" });
    }
  }

  /* After each render of the pad: which hand it serves, and every hand's penalty. */
  show(hand) {
    const { hands } = this;
    const parts = hands.parts(hand);
    const counted = hands.isCounted(hand);
    for (const each of hands.all) {
      each.classList.toggle("is-active", each === hand);
      if (each === hand) each.setAttribute("aria-current", "true");
      else each.removeAttribute("aria-current");
    }
    this.lead.textContent = word(counted ? "points_for" : "cards_for");
    this.list.value = String(hands.all.indexOf(hand));
    [...this.list.options].forEach((option, index) => {
      option.disabled = hands.isOut(hands.all[index]);
    });
    const saying = `${this.lead.textContent} ${parts.name}`;
    if (this.said.textContent !== saying) this.said.textContent = saying;
    this.mode.setAttribute("aria-pressed", counted ? "true" : "false");
    this.mode.setAttribute("aria-label", word("points_for_name", { name: parts.name }));
    this.counted.hidden = !counted;
    this.counted.textContent = counted
      ? word("counted_in_points", { name: parts.name })
      : "";
    this.pad.showCardKeys(!counted);
    const then = hands.after(hand);
    this.next.textContent = then ? word("next_hand", { name: hands.parts(then).name }) : word("done");
    this.next.title = then ? "" : word("to_save");
    this.showPenalties();
  }

  /* Every hand's penalty, or why the save would refuse it (hands.js). */
  showPenalties() {
    this.hands.showPenalties(this.pad.notation, this.penalties, this.copies);
  }
}
