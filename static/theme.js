/* Light or dark: the tablet's own setting, unless this tablet chose otherwise with the
 * "Dark room" button (remembered here). Runs in the head, before the page paints; and the top
 * bar's menu button on a phone. */
(function () {
  "use strict";
  var KEY = "scorekeeper-theme";
  var root = document.documentElement;
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function stored() {
    try { return window.localStorage.getItem(KEY); } catch { return null; }
  }

  function store(value) {
    try {
      if (value) window.localStorage.setItem(KEY, value);
      else window.localStorage.removeItem(KEY);
    } catch { /* private mode: the choice lasts this page only */ }
  }

  function systemTheme() { return system && system.matches ? "dark" : "light"; }

  function current() { return root.getAttribute("data-theme") || systemTheme(); }

  // The button works only with this script: shown from the first paint, so nothing moves later.
  root.classList.add("theme-switchable");
  var chosen = stored();
  if (chosen === "dark" || chosen === "light") root.setAttribute("data-theme", chosen);

  /* The button shows its state where it is seen (a tick when on: "✓ Dark room", narrow enough
   * for the top bar); a screen reader hears its name, "Dark room", and its pressed state, so the
   * name never changes under it. */
  function showState(button) {
    var dark = current() === "dark";
    button.setAttribute("aria-pressed", dark ? "true" : "false");
    var state = button.querySelector(".toggle-state");
    if (state) state.textContent = dark ? "✓ " : "";
  }

  /* On a phone the top bar's links fold under "Menu" (static/style.css): a tap opens them,
   * another tap or Escape closes them. */
  function foldMenu() {
    var bar = document.querySelector(".topbar");
    var menu = bar && bar.querySelector(".menu-toggle");
    if (!menu) return;
    function show(open) {
      bar.classList.toggle("menu-open", open);
      menu.setAttribute("aria-expanded", open ? "true" : "false");
    }
    menu.addEventListener("click", function () { show(!bar.classList.contains("menu-open")); });
    bar.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && bar.classList.contains("menu-open")) {
        show(false);
        menu.focus();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    foldMenu();
    var button = document.querySelector(".theme-toggle");
    if (!button) return;
    showState(button);
    button.addEventListener("click", function () {
      var next = current() === "dark" ? "light" : "dark";
      // A choice that matches the tablet's own setting is no choice: follow the tablet again.
      if (next === systemTheme()) {
        root.removeAttribute("data-theme");
        store(null);
      } else {
        root.setAttribute("data-theme", next);
        store(next);
      }
      showState(button);
    });
    if (system && system.addEventListener) {
      system.addEventListener("change", function () { showState(button); });
    }
  });
})();
