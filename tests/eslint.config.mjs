// ESLint for the scripts the pages load (static/*.js), run by `make lint` from the repository's
// root. Most are classic scripts; the card pad and the round form are ES modules, named here, so
// that a new module not listed fails to parse rather than being read by the wrong rules.
import js from "@eslint/js";
import globals from "globals";

const MODULES = [
  "static/cards.js",
  "static/cardpad.js",
  "static/checkpad.js",
  "static/hands.js",
  "static/phonecollect.js",
  "static/phonehand.js",
  "static/handsteps.js",
  "static/rove.js",
  "static/roundform.js",
  "static/ruleeditor.js",
  "static/rulerows.js",
  "static/steppers.js",
];

export default [
  js.configs.recommended,
  {
    files: ["static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.browser },
    rules: {
      // The limits the Python has (ruff's C901, tests/web/test_architecture.py).
      complexity: ["error", 15],
      "max-lines": ["error", 500],
      eqeqeq: "error",
    },
  },
  {
    files: MODULES,
    languageOptions: { sourceType: "module" },
    rules: { "no-var": "error", "prefer-const": "error" },
  },
];
