/* A player's hand on their own phone: the card pad enters the cards (cards.js reads them as the
 * server does), the penalty shows as they go in (penalty.js), and Send goes by the outbox
 * (outbox.js) so that a phone off the Wi-Fi keeps the send: it waits in localStorage with the
 * form's one-time token (a repeat of it writes once, platform/writeonce.py) and goes when the
 * phone is back online, or at the next try, every `data-retry-ms`. The words are the server's
 * (`data-words`). The page works without this script: a plain form. */
import { CardPad } from "./cardpad.js";
import { Notation } from "./cards.js";
import { Outbox, canPost, storage } from "./outbox.js";
import { cardsPenalty, showPenalty, typedPoints } from "./penalty.js";
import { wordsOf } from "./words.js";

const form = document.querySelector("form.phone-hand");

class PhoneHand {
  constructor() {
    this.cards = form.querySelector(".cards-input");
    this.points = form.querySelector(".points-input");
    this.counted = form.querySelector(".points-toggle");
    this.out = form.querySelector(".out-toggle");
    this.oneTurn = form.querySelector(".one-turn-toggle");
    this.penalty = form.querySelector(".phone-penalty");
    this.status = form.querySelector(".send-status");
    this.button = form.querySelector(".send-hand");
    this.words = wordsOf(form);
    const pad = form.querySelector(".cardpad");
    this.notation = Notation.of(pad);
    this.counting = {
      penalties: JSON.parse(pad.dataset.penalties),
      copies: JSON.parse(pad.dataset.copies),
      words: this.words,
    };
    new CardPad(pad);
    this.key = form.dataset.pending;
    this.body = null;
    this.outbox = new Outbox(form, {
      body: () => this.body,
      retryMs: Number(form.dataset.retryMs),
      // The server busy or away: kept, and tried again.
      retryable: (response) => response.status >= 500,
      trying: () => {
        this.button.disabled = true;
        this.status.textContent = this.words.sending;
      },
      settled: () => { this.button.disabled = false; },
      waiting: () => this.waiting(),
      saved: () => this.drop(),
      refused: (response, body) => this.refused(response, body),
    });
    form.addEventListener("input", () => this.show());
    form.addEventListener("change", () => this.show());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.keep(new URLSearchParams(new FormData(form)).toString());
      this.outbox.send(true);
    });
    this.restore();
    this.show();
    this.outbox.send(false);
  }

  /* Cards, points or neither, as the hand is entered; and the penalty so far. */
  show() {
    const out = this.out.checked;
    const counted = this.counted.checked;
    form.querySelector(".phone-cards").hidden = out || counted;
    form.querySelector(".phone-points").hidden = out || !counted;
    this.counted.closest(".points-switch").hidden = out;
    // Going down and out in one turn, where the rules give a bonus for it: only a player out.
    if (this.oneTurn) {
      this.oneTurn.closest(".one-turn-tile").hidden = !out;
      if (!out) this.oneTurn.checked = false;
    }
    if (out) showPenalty(this.penalty, "0");
    else if (counted) showPenalty(this.penalty, typedPoints(this.points.value));
    else showPenalty(this.penalty, ...cardsPenalty(this.notation, this.cards.value, this.counting));
  }

  keep(body) {
    this.body = body;
    storage.set(this.key, body);
  }

  drop() {
    this.body = null;
    storage.remove(this.key);
  }

  /* A send left waiting by an earlier page (the phone reloaded, the browser closed): its
   * entries back into the form, and its token, so that it still writes once. */
  restore() {
    const body = storage.get(this.key);
    if (!body) return;
    this.body = body;
    const fields = new URLSearchParams(body);
    for (const element of form.elements) {
      if (!element.name || !fields.has(element.name)) {
        if (element.type === "checkbox") element.checked = false;
        continue;
      }
      if (element.type === "checkbox") element.checked = true;
      else element.value = fields.get(element.name);
    }
    this.waiting();
  }

  waiting() {
    this.status.textContent = this.words.waiting;
    form.classList.add("is-waiting");
  }

  /* Not sent: a refusal of the page (its code gone, the seat released) reloads it; the hand
   * refused (a card misread, too many points) is posted natively, its token as sent, so the
   * page says what to fix. Either way the send is no longer kept. */
  refused(response, body) {
    this.drop();
    if (!response.ok) {
      window.location.reload();
      return;
    }
    const again = new URLSearchParams(body);
    for (const element of form.elements) {
      if (element.type === "hidden" && again.has(element.name)) element.value = again.get(element.name);
    }
    form.submit();
  }
}

if (form && canPost()) new PhoneHand();
