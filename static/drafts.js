/* Nothing typed is lost: a form with data-draft="KEY" keeps what is typed into it on this tablet
 * (localStorage, under KEY: per game, round and version) from the first tap until the server has
 * it, through a reload, Back and Forward, a closed tab or a failed save; it is offered back with a
 * notice that can discard it. A save is posted by this script, so that when the tablet is
 * offline the page stays, says so, and saves once the connection returns. The game page tells
 * this script which drafts were saved. Every form works without this script. */
(function () {
  "use strict";
  var PREFIX = "scorekeeper.draft:";
  var MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
  var WRITE_DELAY_MS = 150;
  var RETRY_MS = 4000;
  // A post with no answer by then is taken as lost (Wi-Fi gone mid-way) and tried again; the
  // server's own wait for a busy database is shorter, so a slow answer still arrives first.
  var ANSWER_WITHIN_MS = 20000;
  var SCRIPT_POST_HEADER = "X-Posted-By-Script";
  // How long the game page keeps dropping the drafts of saved forms that arrive late.
  var SETTLE_MS = 5000;

  var store = null;
  try {
    store = window.localStorage;
  } catch {
    store = null; // storage refused (private mode, policy): forms still post as usual
  }

  function read(key) {
    try {
      var draft = JSON.parse(store.getItem(PREFIX + key));
      return draft && typeof draft.fields === "object" && draft.fields ? draft : null;
    } catch {
      return null;
    }
  }

  function write(key, fields) {
    try {
      store.setItem(PREFIX + key, JSON.stringify({ saved: Date.now(), fields: fields }));
    } catch {
      /* storage full or refused: the page itself still holds the entries */
    }
  }

  function drop(key) {
    try {
      store.removeItem(PREFIX + key);
    } catch {
      /* nothing to drop */
    }
  }

  function keys() {
    var found = [];
    if (!store) return found;
    for (var i = 0; i < store.length; i++) {
      var name = store.key(i);
      if (name && name.indexOf(PREFIX) === 0) found.push(name.slice(PREFIX.length));
    }
    return found;
  }

  /* Drafts nobody came back to for a week are dropped. */
  function dropOld() {
    keys().forEach(function (key) {
      var draft = read(key);
      if (!draft || !(Date.now() - draft.saved < MAX_AGE_MS)) drop(key);
    });
  }

  /* The controls a person sets: not hidden fields (the form's token, the round and version it was
   * opened for), which always come from the page as the server sent it. */
  function controls(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && el.tagName !== "BUTTON" && el.tagName !== "FIELDSET" &&
        ["hidden", "submit", "button", "reset", "file"].indexOf(el.type) < 0;
    });
  }

  function isText(el) {
    return el.type !== "radio" && el.type !== "checkbox" && el.tagName !== "SELECT";
  }

  function snapshot(form) {
    var fields = {};
    controls(form).forEach(function (el) {
      if (el.type === "radio") {
        if (!(el.name in fields)) fields[el.name] = null;
        if (el.checked) fields[el.name] = el.value;
      } else if (el.type === "checkbox") {
        fields[el.name] = el.checked;
      } else {
        fields[el.name] = el.value;
      }
    });
    return fields;
  }

  /* Put `fields` into the form, then tell the page's other scripts (the card pads, the hidden
   * hand of the player who went out, the seats of a rule set) as if they had been typed. */
  function apply(form, fields) {
    var changed = [];
    // A form whose rows come and go (the rule editor's deals and melds) makes the rows the
    // fields need first.
    form.dispatchEvent(new CustomEvent("draft-fields", { detail: fields }));
    controls(form).forEach(function (el) {
      if (!Object.prototype.hasOwnProperty.call(fields, el.name)) return;
      var want = fields[el.name];
      if (el.type === "radio") {
        var on = el.value === want;
        if (el.checked !== on) { el.checked = on; changed.push(el); }
      } else if (el.type === "checkbox") {
        if (el.checked !== Boolean(want)) { el.checked = Boolean(want); changed.push(el); }
      } else if (typeof want === "string" && el.value !== want) {
        el.value = want;
        changed.push(el);
      }
    });
    changed.forEach(function (el) {
      el.dispatchEvent(new Event(isText(el) ? "input" : "change", { bubbles: true }));
    });
    return changed.length > 0;
  }

  function notice(cls, role) {
    var box = document.createElement("div");
    box.className = "form-notice " + cls;
    box.setAttribute("role", role);
    return box;
  }

  function clock(ms) {
    var when = new Date(ms);
    return isNaN(when) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  /* The outage notice's words: what happened, what "not confirmed" means (only when the save may
   * have arrived), what the page is doing, and what the family can do. */
  var UNREACHED_CAUSES = "the laptop may be asleep, the app stopped there, or this tablet off the Wi-Fi";
  function waitingWords(busy, left, gone) {
    if (busy) {
      return {
        what: "The score book is busy: nothing is saved yet.",
        meaning: "",
        doing: "Trying again in a few seconds, by itself; your entries are kept on this tablet.",
        help: "Nothing to do but wait, or tap Try again."
      };
    }
    var what;
    if (left) {
      what = gone
        ? "The tablet went offline before the score book answered: the save is not confirmed."
        : "The score book's answer did not arrive (" + UNREACHED_CAUSES + "): the save is not confirmed.";
    } else {
      what = gone
        ? "The tablet is offline: nothing is saved yet."
        : "The score book could not be reached (" + UNREACHED_CAUSES + "): nothing is saved yet.";
    }
    return {
      what: what,
      meaning: left
        ? "Not confirmed means the score book may have saved it already; sending it again never saves it twice."
        : "",
      doing: "Trying again every few seconds, by itself; your entries are kept on this tablet.",
      help: "Wake the laptop, check the app is still running there (make run) and this tablet " +
        "is on the table's Wi-Fi, then tap Try again."
    };
  }

  function setupForm(form) {
    var key = form.getAttribute("data-draft");
    var served = snapshot(form);
    var quiet = false;
    var pending = null;

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

    var draft = read(key);
    if (draft && apply(form, draft.fields)) {
      var restored = notice("draft-notice", "status");
      var text = document.createElement("p");
      var at = clock(draft.saved);
      text.textContent = "Restored your entries" + (at ? " from " + at : "") +
        ", kept on this tablet: check them, then save.";
      var discard = document.createElement("button");
      discard.type = "button";
      discard.className = "secondary";
      discard.textContent = "Discard them";
      discard.addEventListener("click", function () {
        quiet = true;
        apply(form, served);
        clearTimeout(pending);
        drop(key);
        quiet = false;
        restored.remove();
        var first = controls(form)[0];
        if (first) first.focus();
      });
      var keep = document.createElement("button");
      keep.type = "button";
      keep.textContent = "Keep them";
      keep.addEventListener("click", function () { restored.remove(); });
      restored.appendChild(text);
      restored.appendChild(keep);
      restored.appendChild(discard);
      form.insertBefore(restored, form.firstChild);
    } else if (form.querySelector(".error, .errors") && !form.hasAttribute("data-draft-carried")) {
      // A save that failed: what was sent is on the page, and is kept from now on. Not so for
      // entries typed for a round already in the ledger: they become this round's draft only
      // when they are touched here.
      writeNow();
    }

    form.addEventListener("input", writeSoon);
    form.addEventListener("change", writeSoon);
    window.addEventListener("pagehide", function () { if (pending) writeNow(); });

    // Once the score book has the form, nothing more is written for it: a write still waiting
    // when the page closes would bring back the draft the next page drops.
    setupSaving(form, writeNow, function saved() {
      quiet = true;
      clearTimeout(pending);
      pending = null;
    });
  }

  /* The save goes by fetch; the server answers a saved form with where to go next. When the post
   * does not arrive, the page stays with a notice and the save is tried again when the tablet is
   * back online, or at a tap on "Try again"; only one post is ever on its way. */
  function setupSaving(form, writeNow, saved) {
    if (!window.fetch || !window.FormData || !window.URLSearchParams) return;
    var sending = false;
    var finished = false;
    var retry = null;
    var offline = null;

    /* Keep the page and say, in this order, what happened, what "not confirmed" means when it
     * applies, what the page is doing about it (trying again by itself every few seconds) and
     * what the family can do. `left` is true when the post went out while the tablet was online:
     * the score book may then have saved it and only its answer got lost, so the page does not
     * claim nothing was saved (sending again is safe: the form's one-time token makes the second
     * post write nothing). */
    function showWaiting(busy, retryMs, left) {
      var first = !offline;
      if (first) {
        offline = notice("offline-notice", "alert");
        ["what", "meaning", "doing", "help"].forEach(function (part) {
          var line = document.createElement("p");
          line.className = "notice-" + part;
          offline.appendChild(line);
        });
        var again = document.createElement("button");
        again.type = "button";
        again.textContent = "Try again";
        again.addEventListener("click", function () { send(true); });
        offline.appendChild(again);
        var actions = form.querySelector(".form-actions");
        form.insertBefore(offline, actions || null);
      }
      var words = waitingWords(busy, left, navigator.onLine === false);
      Object.keys(words).forEach(function (part) {
        var line = offline.querySelector(".notice-" + part);
        line.textContent = words[part];
        line.hidden = !words[part];
      });
      // In view once its words are in (the notice grows with them); only the first time, so a
      // retry never moves a page being scrolled.
      if (first && offline.scrollIntoView) offline.scrollIntoView({ block: "nearest", behavior: "instant" });
      offline.classList.remove("trying");
      clearTimeout(retry);
      retry = setTimeout(function () { send(false); }, retryMs || RETRY_MS);
    }

    function send(tapped) {
      if (sending || finished) return;
      clearTimeout(retry);
      if (!tapped && navigator.onLine === false) {
        showWaiting(false);
        return;
      }
      sending = true;
      var online = navigator.onLine !== false;
      if (offline) offline.classList.add("trying");
      var body = new URLSearchParams(new FormData(form));
      var headers = {};
      headers[SCRIPT_POST_HEADER] = "1";
      var abort = window.AbortController ? new AbortController() : null;
      var late = abort && setTimeout(function () { abort.abort(); }, ANSWER_WITHIN_MS);
      fetch(form.action, {
        method: "POST",
        body: body,
        headers: headers,
        credentials: "same-origin",
        cache: "no-store",
        signal: abort ? abort.signal : undefined
      }).then(function (response) {
        clearTimeout(late);
        if (response.status === 503) {
          // Busy, not broken: nothing was saved; wait as long as the server asks (a little).
          sending = false;
          var wait = Number(response.headers.get("Retry-After")) * 1000;
          showWaiting(true, Math.min(Math.max(wait || RETRY_MS, 1000), 10000));
          return undefined;
        }
        var type = response.headers.get("Content-Type") || "";
        if (response.ok && type.indexOf("application/json") === 0) {
          return response.json().then(function (answer) {
            finished = true;
            saved();
            window.location.assign(answer.location);
          });
        }
        // The server answered with a page instead (the form with what to fix, or a refusal):
        // nothing was saved, so post the form the ordinary way to show that page as it is.
        finished = true;
        HTMLFormElement.prototype.submit.call(form);
      }).catch(function () {
        clearTimeout(late);
        sending = false;
        if (!finished) showWaiting(false, 0, online);
      });
    }

    form.addEventListener("submit", function (event) {
      if (event.defaultPrevented) return;
      // A button with a name of its own (the rule editor's "Add a table size") changes the form
      // and saves nothing: it posts as usual, its name with it.
      if (event.submitter && event.submitter.name) return;
      event.preventDefault();
      writeNow();
      send(true);
    });
    window.addEventListener("online", function () {
      if (offline && !finished) send(false);
    });
  }

  var NEW_ROUND = /^game-(\d+)\/round-(\d+)\/new$/;

  /* Drop the drafts `stale` names now, and those the page left behind writes as they arrive: it
   * may still be closing in another process of the browser, its last write landing after this
   * page has read the storage. */
  function dropStale(stale) {
    keys().filter(stale).forEach(drop);
    function watch(event) {
      if (!event.key || event.key.indexOf(PREFIX) !== 0 || event.newValue === null) return;
      var key = event.key.slice(PREFIX.length);
      if (stale(key)) drop(key);
    }
    window.addEventListener("storage", watch);
    setTimeout(function () { window.removeEventListener("storage", watch); }, SETTLE_MS);
  }

  /* Whether `key` is the draft of a new round of `game` before round `next`: one in the ledger. */
  function recorded(key, game, next) {
    var match = NEW_ROUND.exec(key);
    return Boolean(match && match[1] === game && Number(match[2]) < next);
  }

  /* The game page: drop the drafts of forms saved, and of rounds recorded since they were typed. */
  function settle(done) {
    var saved;
    try {
      saved = JSON.parse(done.getAttribute("data-saved") || "[]");
    } catch {
      saved = [];
    }
    var game = done.getAttribute("data-game");
    var next = Number(done.getAttribute("data-next-round")) || Infinity;
    dropStale(function (key) { return saved.indexOf(key) >= 0 || recorded(key, game, next); });
  }

  /* A new round's form: the drafts of this game's earlier rounds are of rounds in the ledger. */
  function settleEarlier(form) {
    var match = NEW_ROUND.exec(form.getAttribute("data-draft"));
    if (!match) return;
    var game = match[1];
    var next = Number(match[2]);
    dropStale(function (key) { return recorded(key, game, next); });
  }

  function start() {
    dropOld();
    document.querySelectorAll(".drafts-done").forEach(settle);
    document.querySelectorAll("form[data-draft]").forEach(function (form) {
      settleEarlier(form);
      setupForm(form);
    });
  }

  /* A form page the browser brought back from its memory is asked for again: it must show the
   * round as it is now. */
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && navigator.onLine !== false && document.querySelector("form[data-draft]")) {
      window.location.reload();
    }
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
