/* The room's screen follows the night by itself: every two seconds it asks the night's state (a
 * 304 with no body while nothing moved) and, when the tag has moved, fetches the screen again
 * and swaps in its board. Nothing to press; while the server cannot be reached, a line says so
 * (its words are the server's, on its data-words) and the board stays as it was. */
import { wordsOf } from "./words.js";

const EVERY_MS = 2000;
// Failed asks in a row before the screen says it cannot reach the score book.
const AWAY_AFTER = 3;
const away = document.getElementById("screen-away");

function board() { return document.getElementById("board"); }

function showAway(failed) {
  if (!away) return;
  if (failed >= AWAY_AFTER) {
    away.textContent = wordsOf(away).away || "";
    away.hidden = false;
  } else {
    away.hidden = true;
  }
}

function swapIn(html) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const fresh = doc.getElementById("board");
  const shown = board();
  if (!fresh || !shown) return;
  shown.replaceWith(document.importNode(fresh, true));
  document.title = doc.title;
}

function follow() {
  let busy = false;
  let failed = 0;

  function check() {
    const shown = board();
    if (busy || !shown || document.visibilityState !== "visible") return;
    busy = true;
    const tag = shown.getAttribute("data-tag");
    fetch(shown.getAttribute("data-state"), {
      cache: "no-store",
      credentials: "same-origin",
      headers: { "If-None-Match": '"' + tag + '"' },
    }).then(function (response) {
      if (response.status === 304) return null;
      if (!response.ok) throw new Error(String(response.status));
      return response.json().then(function (state) {
        if (state.tag === tag) return null;
        return fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
          .then(function (page) {
            if (!page.ok) throw new Error(String(page.status));
            return page.text();
          })
          .then(swapIn);
      });
    }).then(function () {
      failed = 0;
    }, function () {
      failed += 1; /* the server is away for a moment: ask again later */
    }).then(function () {
      showAway(failed);
      busy = false;
    });
  }

  window.setInterval(check, EVERY_MS);
  document.addEventListener("visibilitychange", check);
}

if (board() && window.fetch && window.DOMParser) follow();
