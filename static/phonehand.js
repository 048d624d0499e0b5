/* A player's hand on their own phone: the card pad enters the cards (cards.js reads them as the
 * server does), the penalty shows as they go in, and Send posts the form itself so that a phone
 * off the Wi-Fi keeps the send: it waits in localStorage with the form's one-time token (a repeat
 * of it writes once, scorebook/writeonce.py) and goes when the `online` event fires or at the
 * next try, every `data-retry-ms`. The page works without this script: a plain form. */
import { CardPad } from "./cardpad.js";
import { Notation } from "./cards.js";

const SCRIPT_POST_HEADER = "X-Posted-By-Script";
const form = document.querySelector("form.phone-hand");

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage refused: sends still go, they just do not outlive the page
  }
}

class PhoneHand {
  constructor() {
    this.cards = form.querySelector(".cards-input");
    this.points = form.querySelector(".points-input");
    this.counted = form.querySelector(".points-toggle");
    this.out = form.querySelector(".out-toggle");
    this.penalty = form.querySelector(".phone-penalty");
    this.status = form.querySelector(".send-status");
    this.button = form.querySelector(".send-hand");
    const pad = form.querySelector(".cardpad");
    this.notation = Notation.of(pad);
    this.penalties = JSON.parse(pad.dataset.penalties);
    this.copies = JSON.parse(pad.dataset.copies);
    new CardPad(pad);
    this.key = form.dataset.pending;
    this.retryMs = Number(form.dataset.retryMs);
    this.store = storage();
    this.sending = false;
    form.addEventListener("input", () => this.show());
    form.addEventListener("change", () => this.show());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.keep(new URLSearchParams(new FormData(form)).toString());
      this.send();
    });
    window.addEventListener("online", () => this.send());
    window.setInterval(() => this.send(), this.retryMs);
    this.restore();
    this.show();
    this.send();
  }

  /* Cards, points or neither, as the hand is entered; and the penalty so far. */
  show() {
    const out = this.out.checked;
    const counted = this.counted.checked;
    form.querySelector(".phone-cards").hidden = out || counted;
    form.querySelector(".phone-points").hidden = out || !counted;
    this.counted.closest(".points-switch").hidden = out;
    if (out) {
      this.penalty.textContent = "0";
    } else if (counted) {
      const typed = this.points.value.trim();
      this.penalty.textContent = /^[0-9]+$/.test(typed) ? String(Number(typed)) : "?";
    } else {
      const over = this.notation.overCopies(this.cards.value, this.copies);
      this.penalty.textContent = over
        ? `? — more ${over} than this game's packs hold`
        : this.notation.penalty(this.cards.value, this.penalties);
    }
  }

  pending() {
    try {
      return this.store && this.store.getItem(this.key);
    } catch {
      return null;
    }
  }

  keep(body) {
    this.body = body;
    try {
      if (this.store) this.store.setItem(this.key, body);
    } catch {
      /* storage full: this page still holds the send */
    }
  }

  drop() {
    this.body = null;
    try {
      if (this.store) this.store.removeItem(this.key);
    } catch {
      /* nothing kept */
    }
  }

  /* A send left waiting by an earlier page (the phone reloaded, the browser closed): its
   * entries back into the form, and its token, so that it still writes once. */
  restore() {
    const body = this.pending();
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
    this.status.textContent = "Not sent yet — will send when the Wi-Fi is back.";
    form.classList.add("is-waiting");
  }

  send() {
    if (!this.body || this.sending) return;
    this.sending = true;
    this.button.disabled = true;
    this.status.textContent = "Sending…";
    fetch(form.action, {
      method: "POST",
      body: this.body,
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        [SCRIPT_POST_HEADER]: "1",
      },
    })
      .then((response) => this.answered(response))
      .catch(() => this.waiting())
      .finally(() => {
        this.sending = false;
        this.button.disabled = false;
      });
  }

  /* Sent: the page the server sends the phone to. Refused: the same form posted natively, so
   * the page says what to fix. The server busy or away: kept, and tried again. */
  answered(response) {
    if (response.status >= 500) {
      this.waiting();
      return null;
    }
    const json = (response.headers.get("Content-Type") || "").includes("application/json");
    const body = this.body;
    this.drop();
    if (response.ok && json) {
      return response.json().then((answer) => window.location.assign(answer.location));
    }
    if (!response.ok) {
      window.location.reload();
      return null;
    }
    // The hand was refused (a card misread, too many points): post it natively to show why.
    const again = new URLSearchParams(body);
    for (const element of form.elements) {
      if (element.type === "hidden" && again.has(element.name)) element.value = again.get(element.name);
    }
    form.submit();
    return null;
  }
}

if (form && window.fetch) new PhoneHand();
