/* The tablet collecting the hands the phones send: every `data-every-ms` it asks for the seats'
 * state (a 304 while nothing changed) and shows each seat's news; a newly received hand goes into
 * its fields of the round form, unless the scorekeeper has typed that hand here since the form
 * was filled: then the seat says "Entered here" and the phone's hand is one tap away. Save is
 * the round form's own; the page works without this script (a reload shows what arrived). */
import "./roundform.js";
import { Hands } from "./hands.js";
import { word } from "./words.js";

const list = document.querySelector(".seat-states");
const form = document.querySelector("form.collect-form");

/* A hand's fields as one comparable value. */
function entered(parts) {
  return JSON.stringify([parts.cards.value.trim(), parts.toggle.checked, parts.points.value.trim()]);
}

class Collector {
  constructor() {
    this.hands = new Hands(form);
    this.words = JSON.parse(list.dataset.words);
    this.url = list.dataset.stateUrl;
    this.tag = list.dataset.tag;
    this.live = document.getElementById("phones-live");
    this.busy = false;
    // What each hand held as the server filled it (or this script since): a hand that differs
    // from it was typed here.
    this.filled = new Map(this.hands.all.map((hand) => [hand.dataset.seat, this.value(hand)]));
    this.sends = new Map([...list.children].map((row) => [row.dataset.seat, Number(row.dataset.sends)]));
    this.outFilled = this.outChoice();
    this.offered = new Map();
    list.addEventListener("click", (event) => {
      const use = event.target.closest(".use-phone");
      if (use) this.use(use.dataset.seat);
    });
  }

  hand(seat) {
    return this.hands.all.find((hand) => hand.dataset.seat === seat);
  }

  value(hand) {
    return entered(this.hands.parts(hand));
  }

  outChoice() {
    return this.hands.wentOut();
  }

  check() {
    if (this.busy || document.visibilityState !== "visible") return;
    this.busy = true;
    fetch(this.url, {
      cache: "no-store",
      credentials: "same-origin",
      headers: { "If-None-Match": `"${this.tag}"` },
    })
      .then((response) => (response.status === 200 ? response.json() : null))
      .then((state) => state && this.show(state))
      .catch(() => { /* the server is away for a moment: ask again next time */ })
      .finally(() => { this.busy = false; });
  }

  show(state) {
    this.tag = state.tag;
    if (!state.open) {
      this.say(word("round_closed"));
      return;
    }
    for (const seat of state.seats) this.showSeat(seat);
  }

  showSeat(seat) {
    const key = String(seat.seat);
    const row = list.querySelector(`.seat-state[data-seat="${key}"]`);
    const fresh = seat.sends > (this.sends.get(key) || 0);
    this.sends.set(key, seat.sends);
    if (fresh && seat.hand) this.arrived(key, seat);
    const here = row.classList.contains("is-here");
    row.className = `seat-state is-${here ? "here" : seat.state}`;
    row.querySelector(".seat-word").textContent = this.words[here ? "here" : seat.state];
    row.querySelector(".seat-penalty").textContent = seat.state === "received" ? String(seat.penalty) : "";
    const cards = row.querySelector(".seat-cards");
    cards.hidden = !(seat.hand && seat.hand.cards);
    cards.querySelector(".seat-cards-text").textContent = seat.hand && seat.hand.cards ? seat.hand.cards : "";
    row.querySelector(".release-form").hidden = seat.state === "waiting";
  }

  /* A hand a phone sent: into the form, unless this hand was typed here. */
  arrived(key, seat) {
    const hand = this.hand(key);
    const typedHere = hand && this.value(hand) !== this.filled.get(key);
    const row = list.querySelector(`.seat-state[data-seat="${key}"]`);
    this.offered.set(key, seat);
    if (typedHere) {
      row.classList.add("is-here");
      row.querySelector(".use-phone").hidden = false;
      this.say(word("phone_sent_here", { name: seat.name }));
    } else {
      this.use(key);
      this.say(word("hand_arrived", { name: seat.name, penalty: seat.penalty }));
    }
  }

  /* Put the hand the seat's phone sent into the form. */
  use(key) {
    const seat = this.offered.get(key);
    const hand = this.hand(key);
    if (!seat || !hand) return;
    if (seat.hand.out) {
      this.chooseOut(key);
      // Went down and out in one turn (R12.3), as the phone said, for the player out here.
      const oneTurn = form.querySelector(".one-turn-choice input");
      if (oneTurn && this.outChoice() === key) oneTurn.checked = Boolean(seat.hand.out_in_one_turn);
    } else {
      const parts = this.hands.parts(hand);
      const counted = seat.hand.points !== undefined;
      if (this.outChoice() === key && this.outFilled === key) this.chooseOut(null);
      parts.toggle.checked = counted;
      parts.toggle.dispatchEvent(new Event("change", { bubbles: true }));
      parts.cards.value = counted ? "" : seat.hand.cards;
      parts.points.value = counted ? String(seat.hand.points) : "";
      parts.cards.dispatchEvent(new Event("input", { bubbles: true }));
      parts.points.dispatchEvent(new Event("input", { bubbles: true }));
      this.filled.set(key, this.value(hand));
    }
    const row = list.querySelector(`.seat-state[data-seat="${key}"]`);
    row.classList.remove("is-here");
    row.querySelector(".use-phone").hidden = true;
    row.querySelector(".seat-word").textContent = this.words.received;
    row.className = "seat-state is-received";
  }

  /* "Who went out?" as a phone said, unless the scorekeeper picked someone else here. */
  chooseOut(key) {
    const current = this.outChoice();
    if (current !== null && current !== this.outFilled && key !== null) return;
    const radios = [...form.querySelectorAll('input[name="out"]')];
    for (const radio of radios) radio.checked = radio.value === key;
    // The round form's script hides the hand of the player who went out (roundform.js).
    const told = radios.find((radio) => radio.checked) || radios[0];
    if (told) told.dispatchEvent(new Event("change", { bubbles: true }));
    this.outFilled = key;
  }

  say(text) {
    if (this.live) this.live.textContent = text;
  }
}

if (list && form && window.fetch) {
  const collector = new Collector();
  window.setInterval(() => collector.check(), Number(list.dataset.everyMs));
  document.addEventListener("visibilitychange", () => collector.check());
}
