/* The tap card pad: one tap enters one card; the text field stays the truth and stays typeable.
 *
 * Markup (the field works without this script):
 *   <input class="cards-input" id="X" name="X">
 *   <div class="cardpad" data-for="X" [data-follow-focus] [data-steps] [data-rank-only]
 *        [data-penalties='{"A":15,…}']>
 *   <output data-penalty-for="X"></output>
 * A rank tap adds a card; a suit tap gives the last card its suit; "JK as" declares what the next
 * joker stands for; every chip has its own undo. Penalties come from the engine, as data.
 * With data-follow-focus one pad serves every cards field of the form: the one focused, or picked
 * with [data-pad-target]. With data-steps (the round form) it serves each `.hand` in turn: a tap on
 * a hand picks it, "Next" steps to the next hand, the player who went out is skipped, and a hand
 * counted in points (its "Points" toggle) is typed in its number field instead.
 * The pad's keys are one stop for Tab; the arrow keys move between them. On the round form each
 * hand is one stop too: its "Points" toggle leaves the Tab order and the pad's own "Points" key
 * switches the hand being entered, whichever the pad's "Cards for" list picks, so Save is a few
 * Tabs from the first hand even with 8 players.
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

  /* The penalty of a cards text, or "?" while a card cannot be read. */
  function penaltyOf(text, penalties) {
    var total = 0, known = true;
    tokens(text).forEach(function (t) {
      var r = rankOf(t);
      if (r && penalties[r] !== undefined) total += penalties[r]; else known = false;
    });
    return known ? String(total) : "?";
  }

  /* A key whose accessible name starts with what it shows (`name`, when given, adds words). */
  function button(label, name, cls) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.className = "pad-key " + (cls || "");
    if (name) b.setAttribute("aria-label", name);
    return b;
  }

  /* One Tab stop for a group of buttons; the arrow keys, Home and End move within it, up and
   * down by where the keys sit on screen (the rows wrap on a narrow tablet). */
  function rove(group, keys) {
    function live() {
      return keys().filter(function (k) { return !k.disabled && k.offsetParent !== null; });
    }
    function settle(current) {
      var all = live();
      if (all.indexOf(current) < 0) current = all[0];
      keys().forEach(function (k) { k.tabIndex = k === current ? 0 : -1; });
    }
    group.addEventListener("focusin", function (event) {
      if (keys().indexOf(event.target) >= 0) settle(event.target);
    });
    group.addEventListener("keydown", function (event) {
      var all = live();
      var at = all.indexOf(document.activeElement);
      if (at < 0) return;
      var next = null;
      var here = all[at].getBoundingClientRect();
      if (event.key === "ArrowRight") next = all[Math.min(at + 1, all.length - 1)];
      else if (event.key === "ArrowLeft") next = all[Math.max(at - 1, 0)];
      else if (event.key === "Home") next = all[0];
      else if (event.key === "End") next = all[all.length - 1];
      else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        var down = event.key === "ArrowDown";
        var row = null, best = null;
        all.forEach(function (k) {
          var box = k.getBoundingClientRect();
          var beyond = down ? box.top > here.top + 4 : box.top < here.top - 4;
          if (!beyond) return;
          if (row === null || (down ? box.top < row - 4 : box.top > row + 4)) { row = box.top; best = null; }
          if (Math.abs(box.top - row) > 4) return;
          var gap = Math.abs(box.left + box.width / 2 - (here.left + here.width / 2));
          if (best === null || gap < best.gap) best = { key: k, gap: gap };
        });
        next = best ? best.key : all[at];
      } else return;
      event.preventDefault();
      settle(next);
      next.focus();
    });
    return settle;
  }

  function setup(pad) {
    var form = pad.closest("form") || document;
    var target = document.getElementById(pad.dataset.for);
    var rankOnly = pad.hasAttribute("data-rank-only");
    var steps = pad.hasAttribute("data-steps");
    var penalties = pad.dataset.penalties ? JSON.parse(pad.dataset.penalties) : null;
    var declaring = false;
    pad.textContent = ""; // what the page says without this script

    var head = null, lead = null, who = null, said = null, counted = null, mode = null;
    if (steps) {
      // "Cards for <hand>": a list of the hands, so a keyboard picks any hand for the pad too.
      head = document.createElement("p");
      head.className = "pad-who";
      lead = document.createElement("label");
      lead.htmlFor = "pad-hand";
      who = document.createElement("select");
      who.id = "pad-hand";
      who.className = "pad-hand";
      said = document.createElement("span");
      said.className = "visually-hidden";
      said.setAttribute("aria-live", "polite");
      head.appendChild(lead);
      head.appendChild(who);
      head.appendChild(said);
      // The hand's "Points" toggle, from the pad: pressed while the hand is counted in points.
      mode = button("Points", null, "secondary pad-points");
      mode.setAttribute("aria-pressed", "false");
      counted = document.createElement("p");
      counted.className = "pad-counted hint";
      counted.hidden = true;
    }
    var chips = document.createElement("div");
    chips.className = "pad-chips";
    chips.setAttribute("aria-live", "polite");
    var keys = document.createElement("div");
    keys.className = "pad-keys";
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
    var jk = button("JK", "JK (joker)", "pad-rank pad-joker");
    jk.dataset.rank = "JK";
    ranks.appendChild(jk);
    SUITS.forEach(function (s) {
      var b = button(s[0], s[1] + (rankOnly ? " (optional)" : ""), "pad-suit" + (s[0] === "♥" || s[0] === "♦" ? " suit-red" : ""));
      b.dataset.suit = s[0];
      suits.appendChild(b);
    });
    var declare = null;
    if (pad.hasAttribute("data-declare")) {
      declare = button("JK as…", "JK as… (joker standing for the next card)", "pad-declare secondary");
      declare.setAttribute("aria-pressed", "false");
      tools.appendChild(declare);
    }
    var undo = button("", null, "secondary pad-undo");
    undo.innerHTML = '<span aria-hidden="true">⌫ </span>Undo';
    undo.title = "Remove the last card";
    var clear = button("Clear", null, "secondary pad-clear");
    clear.title = "Remove every card";
    tools.appendChild(undo);
    tools.appendChild(clear);
    var next = null;
    if (steps) {
      next = button("Next", null, "pad-next");
      tools.appendChild(next);
    }
    // The suits and the tools share a row where the tablet is wide enough.
    var lower = document.createElement("div");
    lower.className = "pad-lower";
    lower.appendChild(suits);
    lower.appendChild(tools);
    keys.appendChild(ranks);
    keys.appendChild(lower);
    if (head) {
      var line = document.createElement("div");
      line.className = "pad-line";
      line.appendChild(head);
      line.appendChild(mode);
      line.appendChild(counted);
      line.appendChild(chips);
      pad.appendChild(line);
    } else {
      pad.appendChild(chips);
    }
    pad.appendChild(keys);

    function padKeys() {
      var all = Array.prototype.slice.call(pad.querySelectorAll(".pad-keys .pad-key"));
      return mode ? [mode].concat(all) : all;
    }
    var settleKeys = rove(pad, padKeys);
    // Tab into the pad lands on the first rank, where entering a hand starts.
    padKeys().forEach(function (k) { k.tabIndex = k === ranks.firstChild ? 0 : -1; });
    var settleChips = rove(chips, function () {
      return Array.prototype.slice.call(chips.querySelectorAll(".pad-chip"));
    });

    function list() { return target ? tokens(target.value) : []; }
    function store(items) {
      target.value = items.join(" ");
      target.dispatchEvent(new Event("input", { bubbles: true }));
    }

    /* --- The round form's hands (data-steps) --- */
    var hands = steps ? Array.prototype.slice.call(form.querySelectorAll(".hand")) : [];
    function handOf(el) { return el ? el.closest(".hand") : null; }
    function partsOf(hand) {
      return {
        cards: hand.querySelector(".cards-input"),
        toggle: hand.querySelector(".points-toggle"),
        points: hand.querySelector(".points-input"),
        name: hand.querySelector(".hand-name").textContent.trim(),
        penalty: hand.querySelector("[data-penalty-for]")
      };
    }
    function isCounted(hand) {
      var toggle = partsOf(hand).toggle;
      return Boolean(toggle && toggle.checked);
    }
    function skipped(hand) {
      var out = form.querySelector('input[name="out"]:checked');
      return hand.hidden || (out !== null && out.value === hand.getAttribute("data-seat"));
    }
    function following(hand) {
      var open = hands.filter(function (h) { return !skipped(h); });
      var at = open.indexOf(hand);
      return at >= 0 && at + 1 < open.length ? open[at + 1] : null;
    }
    function showCounted(hand) {
      var on = isCounted(hand);
      hand.classList.toggle("is-counted", on);
      var parts = partsOf(hand);
      if (parts.points) parts.points.closest(".hand-points").hidden = !on;
      parts.cards.closest(".hand-cards").hidden = on;
    }
    function showPenalty(hand) {
      var parts = partsOf(hand);
      if (!parts.penalty || !penalties) return;
      if (isCounted(hand)) {
        var typed = parts.points.value.trim();
        parts.penalty.textContent = /^[0-9]+$/.test(typed) ? String(Number(typed)) : "?";
      } else {
        parts.penalty.textContent = penaltyOf(parts.cards.value, penalties);
      }
    }

    function choose(input) {
      target = input;
      pad.dataset.for = input.id;
      form.querySelectorAll(".cards-input").forEach(function (el) {
        el.classList.toggle("pad-target", el === target);
      });
      if (steps) {
        var active = handOf(target);
        hands.forEach(function (h) {
          var on = h === active;
          h.classList.toggle("is-active", on);
          if (on) h.setAttribute("aria-current", "true"); else h.removeAttribute("aria-current");
        });
      }
      render();
    }

    function render() {
      if (!target) return;
      var items = list();
      var focusedChip = chips.contains(document.activeElement);
      chips.textContent = "";
      items.forEach(function (token, index) {
        var chip = button(normal(token) + " ×", "remove " + normal(token), "card-chip pad-chip");
        if (/[♥♦]/.test(normal(token))) chip.classList.add("suit-red");
        chip.dataset.index = String(index);
        chip.tabIndex = -1;
        chips.appendChild(chip);
      });
      if (!items.length) {
        var empty = document.createElement("span");
        empty.className = "hint";
        empty.textContent = "No cards yet: tap a rank" + (rankOnly ? " (suit optional)" : ", then a suit");
        chips.appendChild(empty);
      }
      if (!focusedChip) settleChips(null);
      if (steps) {
        var hand = handOf(target);
        var parts = partsOf(hand);
        var on = isCounted(hand);
        lead.textContent = on ? "Points for" : "Cards for";
        who.value = String(hands.indexOf(hand));
        Array.prototype.forEach.call(who.options, function (option, i) {
          option.disabled = skipped(hands[i]);
        });
        var saying = lead.textContent + " " + parts.name;
        if (said.textContent !== saying) said.textContent = saying;
        mode.setAttribute("aria-pressed", on ? "true" : "false");
        mode.setAttribute("aria-label", "Points for " + parts.name);
        counted.hidden = !on;
        counted.textContent = on ? parts.name + "’s hand is counted in points: enter them beside the name." : "";
        chips.hidden = on;
        ranks.hidden = on;
        suits.hidden = on;
        undo.hidden = on;
        clear.hidden = on;
        var then = following(hand);
        next.textContent = then ? "Next: " + partsOf(then).name : "Done";
        next.title = then ? "" : "Go to the Save button";
        hands.forEach(showPenalty);
      } else {
        var out = document.querySelector('[data-penalty-for="' + target.id + '"]');
        if (out && penalties) out.textContent = penaltyOf(target.value, penalties);
      }
      settleKeys(padKeys().filter(function (k) { return k.tabIndex === 0; })[0]);
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
        var index = Number(key.dataset.index);
        items.splice(index, 1);
        store(items);
        // Focus stays with the chips: the one now in its place, else the one before, else the pad.
        var left = chips.querySelectorAll(".pad-chip");
        var stay = left[Math.min(index, left.length - 1)] || padKeys()[0];
        if (stay.classList.contains("pad-chip")) settleChips(stay);
        stay.focus();
      } else if (key === undo) {
        items.pop();
        store(items);
      } else if (key === clear) {
        store([]);
      } else if (key === declare) {
        declaring = !declaring;
        declare.setAttribute("aria-pressed", declaring ? "true" : "false");
      } else if (key === next) {
        step();
      } else if (key === mode) {
        var parts = partsOf(handOf(target));
        parts.toggle.checked = !parts.toggle.checked;
        parts.toggle.dispatchEvent(new Event("change", { bubbles: true }));
        // Counted: the number is typed next (the numeric keypad opens); cards: the pad is ready.
        if (parts.toggle.checked) parts.points.focus();
      }
    });

    /* "Next": the next hand still to enter, or the Save button after the last one. */
    function step() {
      var then = following(handOf(target));
      if (then) {
        choose(partsOf(then).cards);
        if (isCounted(then)) partsOf(then).points.focus();
        then.scrollIntoView({ block: "nearest" });
        pad.scrollIntoView({ block: "nearest" });
      } else {
        var save = form.querySelector('[type="submit"]');
        if (save) {
          save.focus();
          save.scrollIntoView({ block: "nearest" });
        }
      }
    }

    if (pad.hasAttribute("data-follow-focus")) {
      form.addEventListener("focusin", function (event) {
        var el = event.target;
        if (el.classList && el.classList.contains("cards-input")) choose(el);
        else if (steps && handOf(el) && hands.indexOf(handOf(el)) >= 0) choose(partsOf(handOf(el)).cards);
      });
      form.addEventListener("click", function (event) {
        // A tap on a player's name picks the hand for the pad without opening the keyboard.
        if (steps && event.target.closest(".hand-name label")) event.preventDefault();
        var pick = event.target.closest("[data-pad-target]");
        if (pick) choose(document.getElementById(pick.dataset.padTarget));
        var hand = steps ? handOf(event.target) : null;
        if (hand && hands.indexOf(hand) >= 0 && handOf(target) !== hand) choose(partsOf(hand).cards);
      });
    }
    form.addEventListener("input", function (event) {
      if (event.target === target || (steps && handOf(event.target))) render();
    });
    if (steps) {
      form.addEventListener("change", function (event) {
        var el = event.target;
        if (el.classList.contains("points-toggle")) {
          var hand = handOf(el);
          showCounted(hand);
          if (handOf(target) !== hand) choose(partsOf(hand).cards);
          else render();
          // A tap on "Points" opens the number keypad at once; the draft's restore does not.
          if (el.checked && event.isTrusted) partsOf(hand).points.focus();
        } else if (el.name === "out") {
          var active = handOf(target);
          if (skipped(active)) {
            var open = hands.filter(function (h) { return !skipped(h); });
            choose(partsOf(following(active) || open[0] || active).cards);
          } else render();
        }
      });
      hands.forEach(function (h, i) {
        var option = document.createElement("option");
        option.value = String(i);
        option.textContent = partsOf(h).name;
        who.appendChild(option);
      });
      who.addEventListener("change", function () {
        var hand = hands[Number(who.value)];
        choose(partsOf(hand).cards);
        hand.scrollIntoView({ block: "nearest" });
      });
      hands.forEach(showCounted);
      // One Tab stop a hand: the pad's "Points" key does what the hand's toggle does.
      hands.forEach(function (h) {
        var toggle = partsOf(h).toggle;
        if (toggle) toggle.tabIndex = -1;
      });
      form.classList.add("has-cardpad");
      var first = hands.filter(function (h) { return !skipped(h); })[0];
      if (first) target = partsOf(first).cards;
    }
    if (target) choose(target);
  }

  function start() {
    document.querySelectorAll(".cardpad").forEach(setup);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
