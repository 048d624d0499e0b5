/* The editor's rows kept numbered: deals, their melds and the table-size steps, each control's
 * name, id, label and place following its row's position, as the server numbers them. */

const ATTRIBUTES = ["name", "id", "for", "aria-describedby", "aria-labelledby", "data-place", "aria-label", "data-say"];

function rewrite(root, change) {
  for (const el of [root, ...root.querySelectorAll("*")]) {
    for (const attribute of ATTRIBUTES) {
      const value = el.getAttribute(attribute);
      if (value !== null) el.setAttribute(attribute, change(value));
    }
    if (el.tagName === "LABEL" || el.hasAttribute("data-deal-number")) {
      for (const node of el.childNodes) {
        if (node.nodeType === Node.TEXT_NODE) node.textContent = change(node.textContent);
      }
    }
  }
}

/* Number every deal row and meld chip of the editor by its position. */
export function renumber(editor) {
  editor.querySelectorAll(".deal-rows > .deal-row").forEach((row, d) => {
    row.setAttribute("data-deal", String(d));
    rewrite(row, (text) =>
      text
        .replace(/deals-\d+-/g, `deals-${d}-`)
        .replace(/deals\[\d+\]/g, `deals[${d}]`)
        .replace(/contract-label-\d+/g, `contract-label-${d}`)
        .replace(/[Dd]eal \d+/g, (found) => `${found[0]}eal ${d + 1}`),
    );
    row.querySelectorAll("[data-deal-number]").forEach((span) => { span.textContent = String(d + 1); });
    row.querySelector('[name="remove_deal"]').value = String(d);
    row.querySelector('[name="add_meld"]').value = String(d);
    row.querySelectorAll(".meld-chip").forEach((chip, m) => {
      chip.setAttribute("data-meld", String(m));
      rewrite(chip, (text) =>
        text
          .replace(/contract-\d+-/g, `contract-${m}-`)
          .replace(/contract\[\d+\]/g, `contract[${m}]`)
          .replace(/meld \d+/g, `meld ${m + 1}`),
      );
      chip.querySelector('[name="remove_meld"]').value = `${d}.${m}`;
    });
  });
  editor.querySelectorAll(".pack-rows > .pack-row").forEach((row, p) => {
    rewrite(row, (text) =>
      text
        .replace(/packs-\d+-/g, `packs-${p}-`)
        .replace(/packs\[\d+\]/g, `packs[${p}]`)
        .replace(/step \d+/g, `step ${p + 1}`),
    );
    row.querySelector('[name="remove_pack"]').value = String(p);
  });
}

/* A row copied from one of the editor's templates, its numbers filled in by `renumber`. */
export function fromTemplate(editor, selector) {
  const template = editor.querySelector(selector);
  const html = template.innerHTML.replace(/__d__|__m__/g, "0").replace(/__D__|__M__/g, "1");
  const holder = document.createElement("ul");
  holder.innerHTML = html;
  return holder.firstElementChild;
}

/* Make a list hold `count` rows: copies of its last row (or the template) added, extra ones
 * taken off the end. */
export function resize(editor, list, count, selector) {
  while (list.children.length > count) list.lastElementChild.remove();
  while (list.children.length < count) {
    const last = list.lastElementChild;
    list.appendChild(last ? last.cloneNode(true) : fromTemplate(editor, selector));
  }
}
