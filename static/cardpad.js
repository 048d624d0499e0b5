/* The tap card pad: one tap enters one card; the text field stays the truth and stays typeable.
 *
 * Markup (the field works without this script):
 *   <input class="cards-input" id="X" name="X">
 *   <div class="cardpad" data-for="X" [data-follow-focus] [data-rank-only] [data-penalties='{"A":15,…}']>
 *   <output data-penalty-for="X"></output>
 * A rank tap adds a card; a suit tap gives the last card its suit; "JK as" declares what the next
 * joker stands for; every chip has its own undo. Penalties come from the engine, as data.
 */
(function () {
  "use strict";
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var SUITS = [["♠", "spades"], ["♥", "hearts"], ["♦", "diamonds"], ["♣", "clubs"]];
  var SUIT_OF = {
    S: "♠", H: "♥", D: "♦", C: "♣", "♠": "♠", "♥": "♥", "♦": "♦", "♣": "♣",
    "♤": "♠", "♡": "♥", "♢": "♦", "♧": "♣"
  };

  function tokens(value) {
    return value.split(/[\s,;]+/).filter(function (t) { return t.length > 0; });
  }

  function normal(token) {
    var t = token.toUpperCase().replace(/\uFE0F/g, "");
    if (t === "JKR" || t === "JOKER" || t === "*" || t === "🃏") return "JK";
    var m = /^(10|[2-9AJQKT])([SHDC♠♥♦♣♤♡♢♧]?)$/.exec(t);
    if (m) return (m[1] === "T" ? "10" : m[1]) + (m[2] ? SUIT_OF[m[2]] : "");
    return token;
  }

  function rankOf(token) {
    var t = normal(token);
    if (t.indexOf("JK") === 0) return "JK";
    var m = /^(10|[2-9AJQK])/.exec(t);
    return m ? m[1] : null;
  }

  function button(label, title, cls) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.className = "pad-key " + (cls || "");
    if (title) b.setAttribute("aria-label", title);
    return b;
  }

  function setup(pad) {
    var form = pad.closest("form") || document;
    var target = document.getElementById(pad.dataset.for);
    var rankOnly = pad.hasAttribute("data-rank-only");
    var penalties = pad.dataset.penalties ? JSON.parse(pad.dataset.penalties) : null;
    var declaring = false;

    var chips = document.createElement("div");
    chips.className = "pad-chips";
    chips.setAttribute("aria-live", "polite");
    var ranks = document.createElement("div");
    ranks.className = "pad-row pad-ranks";
    var suits = document.createElement("div");
    suits.className = "pad-row pad-suits";
    var tools = document.createElement("div");
    tools.className = "pad-row pad-tools";

    RANKS.forEach(function (rank) {
      var b = button(rank, null, "pad-rank");
      b.dataset.rank = rank;
      ranks.appendChild(b);
    });
    var jk = button("JK", "joker", "pad-rank pad-joker");
    jk.dataset.rank = "JK";
    ranks.appendChild(jk);
    SUITS.forEach(function (s) {
      var b = button(s[0], s[1] + (rankOnly ? " (optional)" : ""), "pad-suit" + (s[0] === "♥" || s[0] === "♦" ? " suit-red" : ""));
      b.dataset.suit = s[0];
      suits.appendChild(b);
    });
    var declare = null;
    if (pad.hasAttribute("data-declare")) {
      declare = button("JK as…", "joker standing for the next card", "pad-declare secondary");
      declare.setAttribute("aria-pressed", "false");
      tools.appendChild(declare);
    }
    var undo = button("⌫ Undo", "remove the last card", "secondary pad-undo");
    var clear = button("Clear", "remove every card", "secondary pad-clear");
    tools.appendChild(undo);
    tools.appendChild(clear);
    pad.appendChild(chips);
    pad.appendChild(ranks);
    pad.appendChild(suits);
    pad.appendChild(tools);

    function list() { return target ? tokens(target.value) : []; }
    function store(items) {
      target.value = items.join(" ");
      target.dispatchEvent(new Event("input", { bubbles: true }));
    }

    function render() {
      if (!target) return;
      var items = list();
      chips.textContent = "";
      items.forEach(function (token, index) {
        var chip = button(normal(token) + " ×", "remove " + normal(token), "card-chip pad-chip");
        if (/[♥♦]/.test(normal(token))) chip.classList.add("suit-red");
        chip.dataset.index = String(index);
        chips.appendChild(chip);
      });
      if (!items.length) {
        var empty = document.createElement("span");
        empty.className = "hint";
        empty.textContent = "No cards yet: tap a rank" + (rankOnly ? " (suit optional)" : ", then a suit");
        chips.appendChild(empty);
      }
      var out = document.querySelector('[data-penalty-for="' + target.id + '"]');
      if (out && penalties) {
        var total = 0, known = true;
        items.forEach(function (t) {
          var r = rankOf(t);
          if (r && penalties[r] !== undefined) total += penalties[r]; else known = false;
        });
        out.textContent = known ? String(total) : "?";
      }
    }

    pad.addEventListener("click", function (event) {
      var key = event.target.closest("button");
      if (!key || !target) return;
      var items = list();
      if (key.dataset.rank) {
        var rank = key.dataset.rank;
        if (declaring && rank !== "JK") {
          items.push("JK=" + rank);
          declaring = false;
          declare.setAttribute("aria-pressed", "false");
        } else {
          items.push(rank);
        }
        store(items);
      } else if (key.dataset.suit) {
        var last = items.length ? normal(items[items.length - 1]).toUpperCase() : "";
        if (/^(JK=)?(10|[2-9AJQK])$/.test(last)) {
          items[items.length - 1] = last + key.dataset.suit;
          store(items);
        }
      } else if (key.dataset.index !== undefined) {
        items.splice(Number(key.dataset.index), 1);
        store(items);
      } else if (key === undo) {
        items.pop();
        store(items);
      } else if (key === clear) {
        store([]);
      } else if (key === declare) {
        declaring = !declaring;
        declare.setAttribute("aria-pressed", declaring ? "true" : "false");
      }
    });

    if (pad.hasAttribute("data-follow-focus")) {
      form.addEventListener("focusin", function (event) {
        if (event.target.classList && event.target.classList.contains("cards-input")) {
          target = event.target;
          form.querySelectorAll(".cards-input").forEach(function (el) {
            el.classList.toggle("pad-target", el === target);
          });
          render();
        }
      });
      form.addEventListener("click", function (event) {
        var pick = event.target.closest("[data-pad-target]");
        if (pick) {
          target = document.getElementById(pick.dataset.padTarget);
          form.querySelectorAll(".cards-input").forEach(function (el) {
            el.classList.toggle("pad-target", el === target);
          });
          render();
        }
      });
    }
    form.addEventListener("input", function (event) {
      if (event.target === target) render();
    });
    if (target) target.classList.add("pad-target");
    render();
  }

  function start() {
    document.querySelectorAll(".cardpad").forEach(setup);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
