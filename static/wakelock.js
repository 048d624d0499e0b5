/* Keep the tablet's screen on while the game page or a round form is open: ask for a screen
 * wake lock on load, ask again whenever the page is shown again (the browser drops the lock
 * when it is hidden), and say so in the top bar. Where there is no wake lock, nothing
 * shows. */
(function () {
  "use strict";
  if (!("wakeLock" in navigator) || !navigator.wakeLock) return;
  var lock = null;
  var note = null;

  function show(on) {
    if (!note) {
      note = document.createElement("p");
      note.className = "wakelock-note";
      note.setAttribute("role", "status");
      note.textContent = "Screen stays on";
      // In the top bar, beside the name, where it covers none of the page's keys.
      var bar = document.querySelector(".topbar");
      if (bar) bar.insertBefore(note, bar.querySelector("nav"));
      else document.body.appendChild(note);
    }
    note.hidden = !on;
  }

  function acquire() {
    if (lock || document.visibilityState !== "visible") return;
    var asked;
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
})();
