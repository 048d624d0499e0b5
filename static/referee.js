/* The rules check keeps its context: a changed rules, round or player count carries over to the
 * other tabs' links, the round list offers the chosen rules' deals, and the seat lists offer only
 * the seats the table has. What each rules choice has (its deals, its fewest and most players)
 * comes from the form's data-rules attribute.
 *
 * The page works without this script: its "Show these seats" button asks for the seat lists.
 */
import { word } from "./words.js";
const form = document.querySelector(".rules-form");
function keepContext() {
  const fields = ["rules", "round", "players"];
  let choices = {};
  try {
    choices = JSON.parse(form.getAttribute("data-rules") || "{}");
  } catch {
    choices = {};
  }

  function value(name) {
    const field = form.elements[name];
    return field ? field.value : null;
  }

  function chosen() {
    return choices[value("rules")] || null;
  }

  function players() {
    const count = parseInt(value("players"), 10);
    return isNaN(count) ? null : count;
  }

  function retab() {
    document.querySelectorAll(".tabs a.tab").forEach(function (link) {
      const url = new URL(link.href);
      fields.forEach(function (name) {
        const v = value(name);
        if (v && !(name === "rules" && url.searchParams.has("game"))) url.searchParams.set(name, v);
      });
      link.href = url.pathname + url.search;
    });
  }

  function rerule() {
    const rules = chosen();
    if (!rules) return;
    const count = form.elements.players;
    if (count) {
      count.min = rules.players[0];
      count.max = rules.players[1];
    }
    const round = form.elements.round;
    if (!round || round.tagName !== "SELECT") return;
    const kept = parseInt(round.value, 10);
    if (round.options.length === rules.deals.length &&
        Array.prototype.every.call(round.options, function (option, index) {
          return option.text === rules.deals[index];
        })) return;
    round.innerHTML = "";
    rules.deals.forEach(function (label, index) {
      const option = document.createElement("option");
      option.value = String(index + 1);
      option.text = label;
      round.appendChild(option);
    });
    round.value = String(Math.min(isNaN(kept) ? 1 : kept, rules.deals.length));
  }

  function label(seat) {
    return word("seat", { number: seat });
  }

  // A seat list made as long as the table: items beyond it go, missing ones are made from the
  // page's pattern (a <template> whose "__seat__" is the seat number).
  function relist(list, pattern, count) {
    if (!list || !pattern) return;
    list.querySelectorAll("li[data-seat]").forEach(function (item) {
      if (parseInt(item.getAttribute("data-seat"), 10) > count) item.remove();
    });
    for (let seat = list.querySelectorAll("li[data-seat]").length + 1; seat <= count; seat++) {
      const holder = document.createElement("ul");
      holder.innerHTML = pattern.innerHTML.replace(/__seat__/g, String(seat));
      list.appendChild(holder.firstElementChild);
    }
  }

  function reselect(select, count) {
    if (!select) return;
    Array.prototype.slice.call(select.options).forEach(function (option) {
      if (parseInt(option.value, 10) > count) option.remove();
    });
    for (let seat = select.querySelectorAll("option[data-seat]").length + 1; seat <= count; seat++) {
      const option = document.createElement("option");
      option.value = String(seat);
      option.text = label(seat);
      option.setAttribute("data-seat", String(seat));
      select.appendChild(option);
    }
  }

  function reseat() {
    const count = players();
    const rules = chosen();
    if (count === null || !rules || count < rules.players[0] || count > rules.players[1]) return;
    if (!document.getElementById("seat-item")) return; // a game's seats are its players
    relist(document.getElementById("requests"), document.getElementById("seat-item"), count);
    relist(document.getElementById("down"), document.getElementById("down-item"), count);
    relist(form.querySelector("#buys ul"), document.getElementById("buys-item"), count);
    reselect(form.elements.active, count);
    reselect(form.elements.last_buyer, count);
    form.dispatchEvent(new CustomEvent("seats-changed", { bubbles: true }));
  }

  function update() {
    rerule();
    retab();
    reseat();
  }

  fields.forEach(function (name) {
    const field = form.elements[name];
    if (!field) return;
    field.addEventListener("change", update);
    field.addEventListener("input", update);
  });
  // A value changed while the page was still loading counts too.
  update();
}

if (form) keepContext();
