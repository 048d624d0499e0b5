/* Keep the tablet's screen on while the game page or a round form is open: ask for a screen
 * wake lock on load, ask again whenever the page is shown again (the browser drops the lock
 * when it is hidden), and say so in the top bar. On a plain-HTTP address the browser offers
 * no wake lock: the top bar says the screen may sleep and, where the server offers a secure
 * address (on this script's tag), links the same page there and the steps to trust it. */
import { word } from "./words.js";
const tag = document.querySelector('script[src*="/wakelock.js"]');

// In the top bar, beside the name, where it covers none of the page's keys.
function place(note) {
  const bar = document.querySelector(".topbar");
  if (bar) bar.insertBefore(note, bar.querySelector("nav"));
  else document.body.appendChild(note);
}

function link(text, href) {
  const anchor = document.createElement("a");
  anchor.href = href;
  anchor.textContent = text;
  return anchor;
}

function warn() {
  const secure = tag && tag.getAttribute("data-secure");
  const how = tag && tag.getAttribute("data-trust");
  const note = document.createElement("p");
  note.className = "wakelock-note wakelock-missing";
  note.setAttribute("role", "status");
  note.appendChild(document.createTextNode(word("screen_may_sleep")));
  if (secure) {
    note.appendChild(document.createTextNode(": "));
    note.appendChild(link(word("open_secure"),
      secure + location.pathname + location.search + location.hash));
    if (how) {
      note.appendChild(document.createTextNode(" · "));
      note.appendChild(link(word("how"), how));
    }
  } else {
    const reason = document.createElement("span");
    reason.className = "visually-hidden";
    reason.textContent = ": " + word("plain_http");
    note.appendChild(reason);
    note.title = word("plain_http_title");
  }
  place(note);
}

function keepAwake() {
  let lock = null;
  let note = null;

  function show(on) {
    if (!note) {
      note = document.createElement("p");
      note.className = "wakelock-note";
      note.setAttribute("role", "status");
      note.textContent = word("screen_stays_on");
      place(note);
    }
    note.hidden = !on;
  }

  function acquire() {
    if (lock || document.visibilityState !== "visible") return;
    let asked;
    try { asked = navigator.wakeLock.request("screen"); } catch { return; }
    Promise.resolve(asked).then(function (sentinel) {
      lock = sentinel;
      show(true);
      if (sentinel && sentinel.addEventListener) {
        sentinel.addEventListener("release", function () {
          lock = null;
          show(false);
        });
      }
    }).catch(function () { /* refused (battery saver, no permission): the screen may sleep */ });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") acquire();
  });
  acquire();
}

if (!window.isSecureContext) warn();
else if ("wakeLock" in navigator && navigator.wakeLock) keepAwake();
