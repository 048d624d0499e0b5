/* The Check on /trust: ask the secure address (its URL is on the button) whether this tablet
 * reaches it without a certificate warning. Yes: say so and go there. No: say so in words,
 * and what to do. Without this script the button is a link to the same check. */
import { word } from "./words.js";
const button = document.getElementById("trust-check");
const result = document.getElementById("trust-result");
// An iPad asking for the desktop site says "Macintosh": a Mac with a touch screen is one.
if (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1) {
  const apple = document.getElementById("steps-apple");
  if (apple) apple.open = true;
}
function check() {
  const WAIT_MS = 8000;

  function say(text, kind) {
    result.textContent = text;
    result.className = "trust-result" + (kind ? " trust-" + kind : "");
  }

  function notYet() {
    say(word("not_trusted"), "not-yet");
  }

  button.addEventListener("click", function (event) {
    event.preventDefault();
    say(word("checking"), "");
    const controller = window.AbortController ? new AbortController() : null;
    const timer = controller ? setTimeout(function () { controller.abort(); }, WAIT_MS) : null;
    fetch(button.getAttribute("data-check"), {
      cache: "no-store",
      credentials: "omit",
      headers: { Accept: "application/json" },
      signal: controller ? controller.signal : undefined,
    }).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (answer) {
      clearTimeout(timer);
      if (!answer || answer.ok !== true) { notYet(); return; }
      say(word("trusted"), "ok");
      window.location.assign(button.getAttribute("data-secure"));
    }).catch(function () {
      clearTimeout(timer);
      notYet();
    });
  });
}

if (button && result && window.fetch) check();
