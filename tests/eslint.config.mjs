// ESLint for the scripts the pages load (static/*.js), run by `make lint` from the repository's
// root. Every one is an ES module (`<script type="module">`, or imported by one).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules: {
      // The limits the Python has (ruff's C901, tests/web/test_architecture.py).
      complexity: ["error", 15],
      "max-lines": ["error", 500],
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
    },
  },
];
