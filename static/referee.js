/* The rules check keeps its context: a changed rules, round or player count carries over to the
 * other tabs' links, and the seat lists offer only the seats the table has.
 *
 * The page works without this script: the links and seats then follow the last answer.
 */
(function () {
  "use strict";
  var form = document.querySelector(".rules-form");
  if (!form) return;
  var fields = ["profile", "round", "players"];

  function value(name) {
    var field = form.elements[name];
    return field ? field.value : null;
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
        if (v) url.searchParams.set(name, v);
      });
      link.href = url.pathname + url.search;
    });
  }

  function reseat() {
    var count = players();
    if (count === null || count < 3 || count > 8) return;
    form.querySelectorAll("li[data-seat]").forEach(function (item) {
      var beyond = parseInt(item.getAttribute("data-seat"), 10) > count;
      item.hidden = beyond;
      var box = item.querySelector("input");
      if (box) {
        box.disabled = beyond;
        if (beyond) box.checked = false;
      }
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
