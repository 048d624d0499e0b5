/* Nothing typed is lost: a form with data-draft="KEY" keeps what is typed into it on this tablet
 * (localStorage, under KEY: per game, round and version) from the first tap until the server has
 * it, through a reload, Back and Forward, a closed tab or a failed save; it is offered back with a
 * notice that can discard it. A save is posted by the outbox (outbox.js), so that when the tablet
 * is offline the page stays, says so, and saves once the connection returns. The game page tells
 * this script which drafts were saved. The notices' words are the server's, on this script's tag
 * (`data-draft-words`). Every form works without this script. */
import { Outbox, canPost, storage } from "./outbox.js";
import { said, wordsOf } from "./words.js";

const PREFIX = "scorekeeper.draft:";
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const WRITE_DELAY_MS = 150;
// How long the game page keeps dropping the drafts of saved forms that arrive late.
const SETTLE_MS = 5000;
const NEW_ROUND = /^game-(\d+)\/round-(\d+)\/new$/;
const words = wordsOf(document.querySelector("script[data-draft-words]"), "data-draft-words");

function read(key) {
  try {
    const draft = JSON.parse(storage.get(PREFIX + key));
    return draft && typeof draft.fields === "object" && draft.fields ? draft : null;
  } catch {
    return null;
  }
}

function write(key, fields) {
  storage.set(PREFIX + key, JSON.stringify({ saved: Date.now(), fields }));
}

function drop(key) {
  storage.remove(PREFIX + key);
}

/* Drafts nobody came back to for a week are dropped. */
function dropOld() {
  for (const key of storage.keys(PREFIX)) {
    const draft = read(key);
    if (!draft || !(Date.now() - draft.saved < MAX_AGE_MS)) drop(key);
  }
}

/* The controls a person sets: not hidden fields (the form's token, the round and version it was
 * opened for), which always come from the page as the server sent it. */
function controls(form) {
  return [...form.elements].filter((el) => el.name && el.tagName !== "BUTTON" && el.tagName !== "FIELDSET" &&
    !["hidden", "submit", "button", "reset", "file"].includes(el.type));
}

function isText(el) {
  return el.type !== "radio" && el.type !== "checkbox" && el.tagName !== "SELECT";
}

function snapshot(form) {
  const fields = {};
  for (const el of controls(form)) {
    if (el.type === "radio") {
      if (!(el.name in fields)) fields[el.name] = null;
      if (el.checked) fields[el.name] = el.value;
    } else if (el.type === "checkbox") {
      fields[el.name] = el.checked;
    } else {
      fields[el.name] = el.value;
    }
  }
  return fields;
}

/* Put `fields` into the form, then tell the page's other scripts (the card pads, the hidden
 * hand of the player who went out, the seats of a rule set) as if they had been typed. */
function apply(form, fields) {
  const changed = [];
  // A form whose rows come and go (the rule editor's deals and melds) makes the rows the
  // fields need first.
  form.dispatchEvent(new CustomEvent("draft-fields", { detail: fields }));
  for (const el of controls(form)) {
    if (!Object.prototype.hasOwnProperty.call(fields, el.name)) continue;
    const want = fields[el.name];
    if (el.type === "radio") {
      const on = el.value === want;
      if (el.checked !== on) { el.checked = on; changed.push(el); }
    } else if (el.type === "checkbox") {
      if (el.checked !== Boolean(want)) { el.checked = Boolean(want); changed.push(el); }
    } else if (typeof want === "string" && el.value !== want) {
      el.value = want;
      changed.push(el);
    }
  }
  for (const el of changed) el.dispatchEvent(new Event(isText(el) ? "input" : "change", { bubbles: true }));
  return changed.length > 0;
}

function notice(cls, role) {
  const box = document.createElement("div");
  box.className = `form-notice ${cls}`;
  box.setAttribute("role", role);
  return box;
}

function button(text, cls) {
  const made = document.createElement("button");
  made.type = "button";
  if (cls) made.className = cls;
  made.textContent = text;
  return made;
}

function clock(ms) {
  const when = new Date(ms);
  return isNaN(when) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/* The outage notice's words: what happened, what "not confirmed" means (only when the save may
 * have arrived), what the page is doing, and what the family can do. */
function waitingWords({ busy, left, offline }) {
  if (busy) return { what: words.busy_what, meaning: "", doing: words.busy_doing, help: words.busy_help };
  const what = left
    ? (offline ? words.unconfirmed_offline : words.unconfirmed_unreached)
    : (offline ? words.unsent_offline : words.unsent_unreached);
  return { what, meaning: left ? words.meaning : "", doing: words.doing, help: words.help };
}

/* The drafts offered back: check them, then save; or discard them. */
function offerBack(form, draft, discarded) {
  const restored = notice("draft-notice", "status");
  const text = document.createElement("p");
  const at = clock(draft.saved);
  text.textContent = at ? said(words.restored_at, { at }) : words.restored;
  const discard = button(words.discard, "secondary");
  discard.addEventListener("click", () => {
    discarded();
    restored.remove();
    const first = controls(form)[0];
    if (first) first.focus();
  });
  const keep = button(words.keep);
  keep.addEventListener("click", () => restored.remove());
  restored.append(text, keep, discard);
  form.insertBefore(restored, form.firstChild);
}

function setupForm(form) {
  const key = form.getAttribute("data-draft");
  const served = snapshot(form);
  let quiet = false;
  let pending = null;

  function writeNow() {
    clearTimeout(pending);
    pending = null;
    if (!quiet) write(key, snapshot(form));
  }
  function writeSoon() {
    if (quiet) return;
    clearTimeout(pending);
    pending = setTimeout(writeNow, WRITE_DELAY_MS);
  }

  const draft = read(key);
  if (draft && apply(form, draft.fields)) {
    offerBack(form, draft, () => {
      quiet = true;
      apply(form, served);
      clearTimeout(pending);
      drop(key);
      quiet = false;
    });
  } else if (form.querySelector(".error, .errors") && !form.hasAttribute("data-draft-carried")) {
    // A save that failed: what was sent is on the page, and is kept from now on. Not so for
    // entries typed for a round already in the ledger: they become this round's draft only
    // when they are touched here.
    writeNow();
  }

  form.addEventListener("input", writeSoon);
  form.addEventListener("change", writeSoon);
  window.addEventListener("pagehide", () => { if (pending) writeNow(); });

  // Once the score book has the form, its draft is dropped here and nothing more is written for
  // it: a write still waiting when the page closes would bring back the draft the next page
  // drops. Dropping it on this page, after the write the save made, keeps the two in order; the
  // next page's drop alone can come before that write reaches the storage it reads.
  setupSaving(form, writeNow, () => {
    quiet = true;
    clearTimeout(pending);
    pending = null;
    drop(key);
  });
}

/* The save goes by the outbox; the server answers a saved form with where to go next. When the
 * post does not arrive, the page stays with a notice and the save is tried again by itself, when
 * the tablet is back online, or at a tap on "Try again". */
function setupSaving(form, writeNow, saved) {
  if (!canPost()) return;
  let shown = null;

  /* Keep the page and say, in this order, what happened, what "not confirmed" means when it
   * applies, what the page is doing about it (trying again by itself every few seconds) and
   * what the family can do. `left`: the post went out while the tablet was online, so the score
   * book may have saved it and only its answer got lost: the page does not claim nothing was
   * saved (sending again is safe: the form's one-time token makes the second post write nothing). */
  function waiting(state) {
    const first = !shown;
    if (first) {
      shown = notice("offline-notice", "alert");
      for (const part of ["what", "meaning", "doing", "help"]) {
        const line = document.createElement("p");
        line.className = `notice-${part}`;
        shown.appendChild(line);
      }
      const again = button(words.try_again);
      again.addEventListener("click", () => outbox.send(true));
      shown.appendChild(again);
      form.insertBefore(shown, form.querySelector(".form-actions") || null);
    }
    const lines = waitingWords(state);
    for (const [part, text] of Object.entries(lines)) {
      const line = shown.querySelector(`.notice-${part}`);
      line.textContent = text || "";
      line.hidden = !text;
    }
    // In view once its words are in (the notice grows with them); only the first time, so a
    // retry never moves a page being scrolled.
    if (first && shown.scrollIntoView) shown.scrollIntoView({ block: "nearest", behavior: "instant" });
    shown.classList.remove("trying");
  }

  const outbox = new Outbox(form, {
    waiting,
    saved,
    trying: () => { if (shown) shown.classList.add("trying"); },
  });

  form.addEventListener("submit", (event) => {
    if (event.defaultPrevented) return;
    // A button with a name of its own (the rule editor's "Add a table size") changes the form
    // and saves nothing: it posts as usual, its name with it.
    if (event.submitter && event.submitter.name) return;
    event.preventDefault();
    writeNow();
    outbox.send(true);
  });
}

/* Drop the drafts `stale` names now, and those the page left behind writes as they arrive: it
 * may still be closing in another process of the browser, its last write landing after this
 * page has read the storage. */
function dropStale(stale) {
  storage.keys(PREFIX).filter(stale).forEach(drop);
  function watch(event) {
    if (!event.key || !event.key.startsWith(PREFIX) || event.newValue === null) return;
    const key = event.key.slice(PREFIX.length);
    if (stale(key)) drop(key);
  }
  window.addEventListener("storage", watch);
  setTimeout(() => window.removeEventListener("storage", watch), SETTLE_MS);
}

/* Whether `key` is the draft of a new round of `game` before round `next`: one in the ledger. */
function recorded(key, game, next) {
  const match = NEW_ROUND.exec(key);
  return Boolean(match && match[1] === game && Number(match[2]) < next);
}

/* The game page: drop the drafts of forms saved, and of rounds recorded since they were typed. */
function settle(done) {
  let saved;
  try {
    saved = JSON.parse(done.getAttribute("data-saved") || "[]");
  } catch {
    saved = [];
  }
  const game = done.getAttribute("data-game");
  const next = Number(done.getAttribute("data-next-round")) || Infinity;
  dropStale((key) => saved.includes(key) || recorded(key, game, next));
}

/* A new round's form: the drafts of this game's earlier rounds are of rounds in the ledger. */
function settleEarlier(form) {
  const match = NEW_ROUND.exec(form.getAttribute("data-draft"));
  if (!match) return;
  const game = match[1];
  const next = Number(match[2]);
  dropStale((key) => recorded(key, game, next));
}

/* A form page the browser brought back from its memory is asked for again: it must show the
 * round as it is now. */
window.addEventListener("pageshow", (event) => {
  if (event.persisted && navigator.onLine !== false && document.querySelector("form[data-draft]")) {
    window.location.reload();
  }
});

dropOld();
document.querySelectorAll(".drafts-done").forEach(settle);
for (const form of document.querySelectorAll("form[data-draft]")) {
  settleEarlier(form);
  setupForm(form);
}
