/* Light or dark: the tablet's own setting, unless this tablet chose otherwise with the
 * "Dark room" button (remembered here); and the top bar's menu button on a phone. Loaded in the
 * head with blocking="render": the browser paints nothing before this module has set the theme,
 * so a dark room never sees a light page flash (where `blocking` is not known, the module runs
 * as soon as the page is parsed). */
const KEY = "scorekeeper-theme";
const root = document.documentElement;
const system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

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
const chosen = stored();
if (chosen === "dark" || chosen === "light") root.setAttribute("data-theme", chosen);

/* The button shows its state where it is seen (a tick when on: "✓ Dark room", narrow enough
 * for the top bar); a screen reader hears its name, "Dark room", and its pressed state, so the
 * name never changes under it. */
function showState(button) {
  const dark = current() === "dark";
  button.setAttribute("aria-pressed", dark ? "true" : "false");
  const state = button.querySelector(".toggle-state");
  if (state) state.textContent = dark ? "✓ " : "";
}

/* On a phone the top bar's links fold under "Menu" (static/style.css): a tap opens them,
 * another tap or Escape closes them. */
function foldMenu() {
  const bar = document.querySelector(".topbar");
  const menu = bar && bar.querySelector(".menu-toggle");
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

/* The top bar's controls, once the page is parsed (a module runs then): the menu, and the
 * "Dark room" button. */
function setupBar() {
  foldMenu();
  const button = document.querySelector(".theme-toggle");
  if (!button) return;
  showState(button);
  button.addEventListener("click", function () {
    const next = current() === "dark" ? "light" : "dark";
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
}

setupBar();
