/* The words a script shows come from the server (a `data-words` JSON attribute the template
 * writes), never from the script: so that they are written, and can be translated, in one place. */

/* The words on `element`'s `data-words` (or the attribute `name`), or {} when there are none. */
export function wordsOf(element, name = "data-words") {
  try {
    return JSON.parse((element && element.getAttribute(name)) || "{}") || {};
  } catch {
    return {};
  }
}

/* A phrase of the server's with its `{slots}` filled in. */
export function said(phrase, slots = {}) {
  return (phrase || "").replace(/\{(\w+)\}/g, (whole, name) => slots[name] ?? whole);
}

let pageWords = null;

/* One of the words a script says, from the `data-script-words` of the scripts' tags
 * (templates/_script_words.html), in the page's language, with its `{slots}` filled in. */
export function word(name, slots = {}) {
  pageWords ??= Object.assign(
    {},
    ...[...document.querySelectorAll("[data-script-words]")].map((tag) =>
      wordsOf(tag, "data-script-words"),
    ),
  );
  return said(pageWords[name] ?? "", slots);
}
