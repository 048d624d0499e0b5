/* The rules check keeps its context: a changed rules, round or player count carries over to the
 * other tabs' links, the round list offers the chosen rules' deals, and the seat lists offer only
 * the seats the table has. What each rules choice has (its deals, its fewest and most players)
 * comes from the form's data-rules attribute.
 *
 * The page works without this script: the links and seats then follow the last answer.
 */
(function () {
  "use strict";
  var form = document.querySelector(".rules-form");
  if (!form) return;
  var fields = ["rules", "round", "players"];
  var choices = {};
  try {
    choices = JSON.parse(form.getAttribute("data-rules") || "{}");
  } catch {
    choices = {};
  }

  function value(name) {
    var field = form.elements[name];
    return field ? field.value : null;
  }

  function chosen() {
    return choices[value("rules")] || null;
  }

  function players() {
    var count = parseInt(value("players"), 10);
    return isNaN(count) ? null : count;
  }

  function retab() {
    document.querySelectorAll(".tabs a.tab").forEach(function (link) {
      var url = new URL(link.href);
      fields.forEach(function (name) {
        var v = value(name);
        if (v && !(name === "rules" && url.searchParams.has("game"))) url.searchParams.set(name, v);
      });
      link.href = url.pathname + url.search;
    });
  }

  function rerule() {
    var rules = chosen();
    if (!rules) return;
    var count = form.elements.players;
    if (count) {
      count.min = rules.players[0];
      count.max = rules.players[1];
    }
    var round = form.elements.round;
    if (!round || round.tagName !== "SELECT") return;
    var kept = parseInt(round.value, 10);
    if (round.options.length === rules.deals.length &&
        Array.prototype.every.call(round.options, function (option, index) {
          return option.text === rules.deals[index];
        })) return;
    round.innerHTML = "";
    rules.deals.forEach(function (label, index) {
      var option = document.createElement("option");
      option.value = String(index + 1);
      option.text = label;
      round.appendChild(option);
    });
    round.value = String(Math.min(isNaN(kept) ? 1 : kept, rules.deals.length));
  }

  function reseat() {
    var count = players();
    var rules = chosen();
    if (count === null || !rules || count < rules.players[0] || count > rules.players[1]) return;
    form.querySelectorAll("li[data-seat]").forEach(function (item) {
      var beyond = parseInt(item.getAttribute("data-seat"), 10) > count;
      item.hidden = beyond;
      item.querySelectorAll("input").forEach(function (box) {
        box.disabled = beyond;
        if (beyond && box.type === "checkbox") box.checked = false;
      });
    });
    form.querySelectorAll("select option").forEach(function (option) {
      var seat = parseInt(option.value, 10);
      if (!option.closest("select").matches("#active, #last_buyer") || seat < 1) return;
      var beyond = seat > count;
      option.hidden = beyond;
      option.disabled = beyond;
      if (beyond && option.selected) option.closest("select").selectedIndex = 0;
    });
  }

  function update() {
    rerule();
    retab();
    reseat();
  }

  fields.forEach(function (name) {
    var field = form.elements[name];
    if (!field) return;
    field.addEventListener("change", update);
    field.addEventListener("input", update);
  });
  // A value changed while the page was still loading counts too.
  update();
})();
