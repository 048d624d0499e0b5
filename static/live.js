/* The game page follows the game: every two seconds it asks whether the game changed (a 304
 * with no body while it has not) and, when it has, swaps in the new page's content. The parts
 * marked data-live-keep (the open "Let another tablet edit" panel, this announcer) stay as they
 * are, and focus goes back to the same control. */
import { word } from "./words.js";
const EVERY_MS = 2000;
const live = document.getElementById("live");
const main = document.querySelector("main");

function follow() {
  const stateUrl = live.getAttribute("data-state");
  let busy = false;

  function focusKey(element) {
    if (!element || element === document.body || !main.contains(element)) return null;
    if (element.id) return "#" + CSS.escape(element.id);
    const href = element.getAttribute("href");
    if (href) return element.tagName.toLowerCase() + '[href="' + CSS.escape(href) + '"]';
    return null;
  }

  function swapIn(html) {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const fresh = doc.querySelector("main");
    const freshLive = doc.getElementById("live");
    if (!fresh || !freshLive) return;
    const focused = focusKey(document.activeElement);
    Array.prototype.forEach.call(main.querySelectorAll("[data-live-keep][id]"), function (kept) {
      const twin = fresh.querySelector("#" + CSS.escape(kept.id));
      if (twin) twin.replaceWith(kept);
    });
    // Flash messages were for the load that showed them.
    Array.prototype.forEach.call(fresh.querySelectorAll(".flash"), function (flash) { flash.remove(); });
    live.setAttribute("data-tag", freshLive.getAttribute("data-tag"));
    main.replaceChildren.apply(main, Array.prototype.slice.call(fresh.childNodes));
    document.title = doc.title;
    if (focused) {
      const again = main.querySelector(focused);
      if (again) again.focus({ preventScroll: true });
    }
    live.textContent = word("scores_updated");
  }

  function refresh() {
    return fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html) swapIn(html); });
  }

  function check() {
    if (busy || document.visibilityState !== "visible") return;
    busy = true;
    const tag = live.getAttribute("data-tag");
    fetch(stateUrl, {
      cache: "no-store",
      credentials: "same-origin",
      headers: { "If-None-Match": '"' + tag + '"' }
    }).then(function (response) {
      if (response.status !== 200) return null;
      return response.json().then(function (state) {
        if (state.tag !== tag) return refresh();
      });
    }).catch(function () { /* the server is away for a moment: ask again later */ })
      .then(function () { busy = false; });
  }

  window.setInterval(check, EVERY_MS);
  document.addEventListener("visibilitychange", check);
}

if (live && main && window.fetch && window.DOMParser) follow();
