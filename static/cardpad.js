/* The tap card pad: one tap enters one card; the text field stays the truth and stays typeable.
 *
 * Markup (the field works without this script):
 *   <input class="cards-input" id="X" name="X">
 *   <div class="cardpad" data-for="X" data-notation='{…}' [data-follow-focus] [data-rank-only]
 *        [data-declare]>
 * A rank tap adds a card; a suit tap gives the last card its suit; "JK as" declares what the next
 * joker stands for; every chip has its own undo. The keys and the chips spell cards as the
 * server's notation does (cards.js). With data-follow-focus one pad serves every cards field of
 * the form: the one focused, or picked with [data-pad-target]. The pad's keys are one stop for
 * Tab, the chips another; the arrow keys move within each (rove.js). A page may add keys of its
 * own (`lead`, `tool`) and follow each render (`onRender`): the round form's stepper does.
 */
import { Notation } from "./cards.js";
import { rove } from "./rove.js";
import { word } from "./words.js";

/* A key whose accessible name starts with what it shows (`name`, when given, adds words). */
export function key(label, name, cls) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.className = `pad-key ${cls}`;
  if (name) button.setAttribute("aria-label", name);
  return button;
}

/* An element of the pad: its tag, its class and its text, when given. */
export function block(tag, cls, text) {
  const element = document.createElement(tag);
  if (cls) element.className = cls;
  if (text) element.textContent = text;
  return element;
}

export class CardPad {
  constructor(element) {
    this.element = element;
    this.notation = Notation.of(element);
    this.form = element.closest("form") || document;
    this.target = document.getElementById(element.dataset.for);
    this.rankOnly = element.hasAttribute("data-rank-only");
    this.declaring = false;
    this.renderers = [];
    element.textContent = ""; // what the page says without this script
    this.build();
    this.settleKeys = rove(element, () => this.keys());
    // Tab into the pad lands on the first rank, where entering a hand starts.
    for (const each of this.keys()) each.tabIndex = each === this.ranks.firstChild ? 0 : -1;
    this.settleChips = rove(this.chips, () => [...this.chips.querySelectorAll(".pad-chip")]);
    element.addEventListener("click", (event) => this.tapped(event));
    this.form.addEventListener("input", (event) => {
      if (event.target === this.target) this.render();
    });
    if (element.hasAttribute("data-follow-focus")) this.followFocus();
    if (this.target) this.aim(this.target);
  }

  build() {
    const notation = this.notation;
    this.chips = block("div", "pad-chips");
    this.chips.setAttribute("aria-live", "polite");
    this.ranks = block("div", "pad-row pad-ranks");
    for (const rank of notation.ranks) this.ranks.append(this.cardKey(rank, null, "pad-rank"));
    const joker = `${notation.joker} (joker)`;
    this.ranks.append(this.cardKey(notation.joker, joker, "pad-rank pad-joker"));
    this.suits = block("div", "pad-row pad-suits");
    for (const suit of notation.suits) {
      const name = suit.name + (this.rankOnly ? " (optional)" : "");
      const button = key(suit.symbol, name, `pad-suit${suit.red ? " suit-red" : ""}`);
      button.dataset.suit = suit.symbol;
      this.suits.append(button);
    }
    this.tools = block("div", "pad-row pad-tools");
    this.declare = null;
    if (this.element.hasAttribute("data-declare")) {
      this.declare = key(
        word("joker_as", { joker: notation.joker }),
        word("joker_as_name", { joker: notation.joker }),
        "pad-declare secondary",
      );
      this.declare.setAttribute("aria-pressed", "false");
      this.tools.append(this.declare);
    }
    const mark = block("span", null, "⌫ ");
    mark.setAttribute("aria-hidden", "true");
    this.undo = key("", null, "secondary pad-undo");
    this.undo.append(mark, word("undo"));
    this.undo.title = word("undo_title");
    this.clear = key(word("clear"), null, "secondary pad-clear");
    this.clear.title = word("clear_title");
    this.tools.append(this.undo, this.clear);
    // The suits and the tools share a row where the tablet is wide enough.
    const lower = block("div", "pad-lower");
    lower.append(this.suits, this.tools);
    this.keyRows = block("div", "pad-keys");
    this.keyRows.append(this.ranks, lower);
    this.element.append(this.chips, this.keyRows);
  }

  cardKey(rank, name, cls) {
    const button = key(rank, name, cls);
    button.dataset.rank = rank;
    return button;
  }

  /* The pad's keys in order (a page's own keys among them), the chips left out. */
  keys() {
    return [...this.element.querySelectorAll(".pad-key:not(.pad-chip)")];
  }

  /* Put `nodes` on one line above the keys, the chips after them. */
  lead(...nodes) {
    const line = block("div", "pad-line");
    line.append(...nodes, this.chips);
    this.element.insertBefore(line, this.keyRows);
    this.joinKeys(nodes);
  }

  /* Add a key to the row of tools, after Undo and Clear. */
  tool(button) {
    this.tools.append(button);
    this.joinKeys([button]);
  }

  joinKeys(nodes) {
    for (const node of nodes) if (node.classList.contains("pad-key")) node.tabIndex = -1;
  }

  /* Call `fn(target)` after each render, once the chips show the target's cards. */
  onRender(fn) {
    this.renderers.push(fn);
  }

  /* Show the keys that enter cards (`on`), or hide them while a hand is entered otherwise. */
  showCardKeys(on) {
    for (const part of [this.chips, this.ranks, this.suits, this.undo, this.clear]) {
      part.hidden = !on;
    }
  }

  /* Enter cards into `input` from now on. */
  aim(input) {
    this.target = input;
    this.element.dataset.for = input.id;
    for (const field of this.form.querySelectorAll(".cards-input")) {
      field.classList.toggle("pad-target", field === input);
    }
    this.render();
  }

  cards() {
    return this.target ? this.notation.tokens(this.target.value) : [];
  }

  store(items) {
    this.target.value = items.join(" ");
    this.target.dispatchEvent(new Event("input", { bubbles: true }));
  }

  render() {
    if (!this.target) return;
    const items = this.cards();
    const focusedChip = this.chips.contains(document.activeElement);
    this.chips.textContent = "";
    items.forEach((token, index) => {
      const shown = this.notation.normal(token);
      const chip = key(`${shown} ×`, word("remove_card", { card: shown }), "card-chip pad-chip");
      if (this.notation.isRed(token)) chip.classList.add("suit-red");
      chip.dataset.index = String(index);
      chip.tabIndex = -1;
      this.chips.append(chip);
    });
    if (!items.length) {
      const hint = word(this.rankOnly ? "no_cards_rank_only" : "no_cards");
      this.chips.append(block("span", "hint", hint));
    }
    if (!focusedChip) this.settleChips(null);
    for (const fn of this.renderers) fn(this.target);
    this.settleKeys(this.keys().find((each) => each.tabIndex === 0));
  }

  tapped(event) {
    const button = event.target.closest("button");
    if (!button || !this.target) return;
    const items = this.cards();
    if (button.dataset.rank) {
      const rank = button.dataset.rank;
      const declared = this.declaring && rank !== this.notation.joker;
      items.push(declared ? this.notation.declared(rank) : rank);
      if (declared) this.declareNext(false);
      this.store(items);
    } else if (button.dataset.suit) {
      const suited = items.length && this.notation.suited(items.at(-1), button.dataset.suit);
      if (suited) {
        items[items.length - 1] = suited;
        this.store(items);
      }
    } else if (button.dataset.index !== undefined) {
      this.removeChip(items, Number(button.dataset.index));
    } else if (button === this.undo) {
      items.pop();
      this.store(items);
    } else if (button === this.clear) {
      this.store([]);
    } else if (button === this.declare) {
      this.declareNext(!this.declaring);
    }
  }

  declareNext(on) {
    this.declaring = on;
    this.declare.setAttribute("aria-pressed", on ? "true" : "false");
  }

  /* Focus stays with the chips: the one now in its place, else the one before, else the pad. */
  removeChip(items, index) {
    items.splice(index, 1);
    this.store(items);
    const left = this.chips.querySelectorAll(".pad-chip");
    const stay = left[Math.min(index, left.length - 1)] || this.keys()[0];
    if (stay.classList.contains("pad-chip")) this.settleChips(stay);
    stay.focus();
  }

  /* Serve the cards field focused, or the one a [data-pad-target] control picks. */
  followFocus() {
    this.form.addEventListener("focusin", (event) => {
      if (event.target.classList && event.target.classList.contains("cards-input")) {
        this.aim(event.target);
      }
    });
    this.form.addEventListener("click", (event) => {
      const pick = event.target.closest("[data-pad-target]");
      if (pick) this.aim(document.getElementById(pick.dataset.padTarget));
    });
  }
}
