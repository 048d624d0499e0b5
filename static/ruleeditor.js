/* The rule set editor (templates/scorebook/rulesets/_editor.html): − and + beside each number,
 * deals and melds added and removed in place, and after every change the server's judgement
 * (POST data-check: problems and notes keyed by place, and the summary line) shown beside each
 * control. On the new game page, picking other rules fills the editor with them. The editor is a
 * plain form without this script: its buttons post and the page comes back changed. */
import { fromTemplate, renumber, resize } from "./rulerows.js";
import { addSteppers, step } from "./steppers.js";

const CHECK_DELAY_MS = 300;

function placeId(place) {
  return place.replace(/\[/g, "-").replace(/\]/g, "").replace(/\./g, "-");
}

function show(editor, answer) {
  for (const slot of editor.querySelectorAll("[data-problem], [data-note]")) {
    slot.textContent = "";
    slot.hidden = true;
  }
  for (const input of editor.querySelectorAll("[aria-invalid]")) input.setAttribute("aria-invalid", "false");
  for (const [kind, found] of [["problem", answer.problems], ["note", answer.notes]]) {
    for (const [place, text] of Object.entries(found)) {
      const slot = document.getElementById(`${kind}-${placeId(place)}`);
      if (!slot || !editor.contains(slot)) continue;
      slot.textContent = text;
      slot.hidden = false;
      const input = kind === "problem" && document.getElementById(placeId(place));
      if (input && input.hasAttribute("aria-invalid")) input.setAttribute("aria-invalid", "true");
    }
  }
  const box = editor.querySelector("[data-problem-list]");
  const list = box.querySelector("ul");
  list.replaceChildren();
  for (const problem of answer.listed) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `#${problem.place ? placeId(problem.place) : "main"}`;
    link.textContent = problem.said;
    item.appendChild(link);
    list.appendChild(item);
  }
  box.querySelector("[data-problem-count]").textContent = answer.count_said;
  box.hidden = answer.listed.length === 0;
  editor.querySelector("[data-summary]").textContent = answer.summary;
  editor.dispatchEvent(new CustomEvent("rules-checked", { bubbles: true, detail: answer }));
}

// R12's variants of a preset are offered while the rules bear the preset's name.
function showVariants(editor) {
  const name = (editor.querySelector('[name="name"]')?.value || "").trim().toLowerCase();
  for (const group of editor.querySelectorAll("[data-variants-of]")) {
    group.hidden = group.getAttribute("data-variants-of") !== name;
  }
}

function setupEditor(editor) {
  const form = editor.closest("form");
  let timer = null;
  let asked = 0;

  async function check(variant) {
    const mine = ++asked;
    const body = new FormData(form);
    for (const name of ["add_deal", "remove_deal", "add_meld", "remove_meld", "add_pack", "remove_pack", "variant"]) body.delete(name);
    if (variant) body.set("variant", variant);
    try {
      const response = await fetch(editor.getAttribute("data-check"), { method: "POST", body, credentials: "same-origin" });
      if (!response.ok || mine !== asked) return;
      const answer = await response.json();
      if (answer.document) {
        editor.fill(answer.document);
        return;
      }
      show(editor, answer);
    } catch {
      /* offline: the form still posts and the server judges it */
    }
  }

  function changed() {
    clearTimeout(timer);
    timer = setTimeout(check, CHECK_DELAY_MS);
    showVariants(editor);
  }

  function press(button) {
    const value = button.value;
    const deals = editor.querySelector(".deal-rows");
    const packs = editor.querySelector(".pack-rows");
    if (button.name === "add_deal") {
      const last = deals.lastElementChild;
      deals.appendChild(last ? last.cloneNode(true) : fromTemplate(editor, ".deal-template"));
    } else if (button.name === "remove_deal") {
      if (deals.children.length > 1) deals.children[Number(value)].remove();
    } else if (button.name === "add_meld") {
      const chips = deals.children[Number(value)].querySelector(".meld-chips");
      chips.appendChild(fromTemplate(editor, ".meld-template"));
    } else if (button.name === "remove_meld") {
      const [d, m] = value.split(".").map(Number);
      deals.children[d].querySelectorAll(".meld-chip")[m].remove();
    } else if (button.name === "add_pack") {
      packs.appendChild(packs.lastElementChild.cloneNode(true));
    } else if (button.name === "remove_pack") {
      if (packs.children.length > 1) packs.children[Number(value)].remove();
    } else if (button.name === "variant") {
      // The server makes the variant (R12.1, R12.2) and sends the rules back to fill in.
      clearTimeout(timer);
      check(value);
      return true;
    } else {
      return false;
    }
    renumber(editor);
    addSteppers(editor);
    const focus = {
      add_deal: () => deals.lastElementChild.querySelector("input"),
      add_meld: () => deals.children[Number(value)].querySelector(".meld-chip:last-child select"),
      add_pack: () => packs.lastElementChild.querySelector("input"),
      remove_meld: () => deals.children[Number(value.split(".")[0])].querySelector('[name="add_meld"]'),
      remove_pack: () => editor.querySelector('[name="add_pack"]'),
    }[button.name] || (() => editor.querySelector(".add-deal"));
    const target = focus();
    if (target) target.focus();
    changed();
    return true;
  }

  editor.addEventListener("click", (event) => {
    const stepper = event.target.closest("[data-step]");
    if (stepper) {
      step(stepper);
      return;
    }
    const button = event.target.closest("button[type=submit]");
    if (button && press(button)) event.preventDefault();
  });
  // A meld's kind changed: its size starts again at the new kind's least (a run of 4 switched to
  // a set is a set of 3, not "a set of 4" by accident).
  const leastSizes = JSON.parse(editor.getAttribute("data-least-sizes") || "{}");
  editor.addEventListener("change", (event) => {
    const kind = event.target.closest("select.meld-kind");
    const least = kind && leastSizes[kind.value];
    if (!least) return;
    const size = kind.closest(".meld-chip").querySelector("input.stepper");
    if (size) size.value = String(least);
  });
  editor.addEventListener("input", changed);
  editor.addEventListener("change", changed);
  addSteppers(editor);
  // A draft being put back (drafts.js): first as many deal, meld and pack rows as it holds.
  form.addEventListener("draft-fields", (event) => {
    const names = Object.keys(event.detail);
    const count = (pattern) => names.filter((name) => pattern.test(name)).length;
    const deals = count(/^deals-\d+-cards$/);
    if (!deals) return;
    fillRows(editor, {
      deals: Array.from({ length: deals }, (_, d) => ({
        contract: { length: count(new RegExp(`^deals-${d}-contract-\\d+-kind$`)) },
      })),
      packs: { length: count(/^packs-\d+-up_to$/) || 1 },
    });
  });
  editor.fill = (doc) => {
    fill(editor, doc);
    changed();
  };
}

function flatten(value, prefix, out) {
  if (Array.isArray(value)) value.forEach((item, i) => flatten(item, `${prefix}-${i}`, out));
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) flatten(item, prefix ? `${prefix}-${key}` : key, out);
  } else out.push([prefix, value]);
  return out;
}

/* As many deal rows, melds in each, and table-size steps as `shape` has. */
function fillRows(editor, shape) {
  const deals = editor.querySelector(".deal-rows");
  resize(editor, deals, shape.deals.length, ".deal-template");
  renumber(editor);
  shape.deals.forEach((deal, d) => {
    const chips = deals.children[d].querySelector(".meld-chips");
    while (chips.children.length > deal.contract.length) chips.lastElementChild.remove();
    while (chips.children.length < deal.contract.length) chips.appendChild(fromTemplate(editor, ".meld-template"));
  });
  resize(editor, editor.querySelector(".pack-rows"), shape.packs.length, ".pack-template");
  renumber(editor);
  addSteppers(editor);
}

/* Fill the editor with a rule set's document: its rows first, then every control. */
function fill(editor, doc) {
  fillRows(editor, doc);
  const values = { ...doc, cut_bonus: -doc.cut_bonus };
  for (const [name, value] of flatten(values, "", [])) {
    for (const el of editor.querySelectorAll(`[name="${name}"]`)) {
      if (el.type === "checkbox") el.checked = Boolean(value);
      else if (el.type === "radio") el.checked = el.value === String(value);
      else el.value = value === null ? "" : String(value);
    }
  }
}

/* The new game page: the picker fills the editor, and the seats follow the edited rules. */
function setupPicker(form) {
  const picker = form.querySelector(".profile-select");
  const editor = form.querySelector(".rule-editor");
  const documents = form.querySelector("[data-documents]");
  if (!picker || !editor || !documents) return;
  const known = JSON.parse(documents.getAttribute("data-documents"));
  const filledFrom = form.querySelector('[name="filled_from"]');
  // A draft put back by drafts.js brings its own rules in the editor: kept, not refilled.
  let restoring = false;
  form.addEventListener("draft-fields", () => {
    restoring = true;
    setTimeout(() => { restoring = false; });
  });
  picker.addEventListener("change", () => {
    const doc = known[picker.value];
    if (doc && !restoring) editor.fill(doc);
    filledFrom.value = picker.value;
  });
  function seats() {
    const option = picker.options[picker.selectedIndex];
    const most = editor.querySelector('[name="players-max"]');
    const min = Number(editor.querySelector('[name="players-min"]').value);
    const max = Number(most.value);
    if (min >= Number(most.min) && max >= min && max <= Number(most.max)) {
      option.setAttribute("data-min", String(min));
      option.setAttribute("data-max", String(max));
      form.dispatchEvent(new Event("rules-seats"));
    }
  }
  editor.addEventListener("rules-checked", seats);
  // Rules saved already and unchanged: "Saved as …" in place of the offer to save them again.
  const place = form.querySelector(".save-rules");
  editor.addEventListener("rules-checked", (event) => {
    if (!place || !("saved_as" in event.detail)) return;
    const name = event.detail.saved_as;
    const note = place.querySelector(".saved-as");
    note.textContent = name ? place.getAttribute("data-saved-words").replace("{name}", name) : "";
    note.hidden = !name;
    place.querySelector(".save-switch").hidden = Boolean(name);
  });
}

for (const editor of document.querySelectorAll(".rule-editor")) setupEditor(editor);
for (const form of document.querySelectorAll("form.new-game")) setupPicker(form);
