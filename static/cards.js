/* The card notation (R1) as the engine defines it. The server writes it into the pad's
 * `data-notation` (scorekeeper.rules.cards.notation): the ranks and suits in order, which suits
 * are red, the joker's spelling and every spelling the engine reads. Nothing of it is spelled
 * here, so the pad reads a card exactly as the score book will. */

function escaped(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/* One alternative for each spelling, the longest first (two digits before one). */
function anyOf(spellings) {
  return [...spellings].sort((a, b) => b.length - a.length).map(escaped).join("|");
}

export class Notation {
  /* `spec`: what rules.cards.notation() returns. */
  constructor(spec) {
    this.ranks = spec.ranks;
    this.suits = spec.suits;
    this.joker = spec.joker;
    this.declares = spec.declares;
    this.readRank = spec.read_rank;
    this.readSuit = spec.read_suit;
    this.jokers = new Set(spec.read_joker);
    this.ignored = spec.ignored;
    this.separators = new RegExp(spec.separators, "u");
    this.natural = new RegExp(
      `^(${anyOf(Object.keys(spec.read_rank))})(${anyOf(Object.keys(spec.read_suit))})?$`,
      "u",
    );
    this.red = new Set(spec.suits.filter((suit) => suit.red).map((suit) => suit.symbol));
  }

  /* The notation an element carries in its `data-notation`. */
  static of(element) {
    return new Notation(JSON.parse(element.dataset.notation));
  }

  /* The tokens of a cards text, as the engine splits it. */
  tokens(text) {
    return text.split(this.separators).filter((token) => token.length > 0);
  }

  /* A token as the engine reads it: `{ joker, rank, suit }` (rank and suit null when not given;
   * a joker's are the card it was declared to stand for), or null when it is not a card. */
  read(token) {
    let text = token;
    for (const mark of this.ignored) text = text.split(mark).join("");
    text = text.trim().toUpperCase();
    const at = text.indexOf(this.declares);
    const head = at < 0 ? text : text.slice(0, at);
    if (this.jokers.has(head)) {
      if (at < 0) return { joker: true, rank: null, suit: null };
      const stood = this.readNatural(text.slice(at + this.declares.length));
      return stood && { ...stood, joker: true };
    }
    return at < 0 ? this.readNatural(text) : null;
  }

  readNatural(text) {
    const match = this.natural.exec(text);
    if (!match) return null;
    return {
      joker: false,
      rank: this.readRank[match[1]],
      suit: match[2] ? this.readSuit[match[2]] : null,
    };
  }

  /* A card as the engine writes it: rank and suit symbol, a rank alone, the joker, or the joker
   * with the card it stands for. */
  write(card) {
    const face = (card.rank || "") + (card.suit || "");
    if (!card.joker) return face;
    return card.rank ? this.joker + this.declares + face : this.joker;
  }

  /* The token as the engine writes it (a suit's letter becomes its symbol, any joker's spelling
   * the joker's), or as typed when it is not a card. */
  normal(token) {
    const card = this.read(token);
    return card ? this.write(card) : token;
  }

  isRed(token) {
    const card = this.read(token);
    return Boolean(card && this.red.has(card.suit));
  }

  /* The token with `suit` given to it, when it is a rank that has none yet; else null. */
  suited(token, suit) {
    const card = this.read(token);
    return card && card.rank && !card.suit ? this.write({ ...card, suit }) : null;
  }

  /* The joker declared to stand for `rank`. */
  declared(rank) {
    return this.write({ joker: true, rank, suit: null });
  }

  /* The first card of a cards text held more often than the game's packs hold it, as written,
   * or null. `copies`: each natural card's copies (`card`, one a pack) and the jokers (`JK`),
   * from the game's rule set; a rank given without its suit may be any of the suits. */
  overCopies(text, copies) {
    return this.allOver(text, copies)[0] || null;
  }

  /* Every card of a cards text held more often than the game's packs hold it, as written, in
   * the order each went over (see `overCopies`). */
  allOver(text, copies) {
    const held = new Map();
    const over = [];
    for (const token of this.tokens(text)) {
      const card = this.read(token);
      if (!card) continue;
      const name = card.joker ? this.joker : this.write(card);
      const most = card.joker ? copies.JK : copies.card * (card.suit ? 1 : this.suits.length);
      held.set(name, (held.get(name) || 0) + 1);
      if (held.get(name) > most && !over.includes(name)) over.push(name);
    }
    return over;
  }

  /* The first token of a cards text that is not a card, as typed, or null. */
  unread(text) {
    return this.tokens(text).find((token) => !this.read(token)) || null;
  }

  /* Whether a cards text holds a card `overCopies` named (`name`, as it writes it). */
  holds(text, name) {
    return this.tokens(text).some((token) => {
      const card = this.read(token);
      return Boolean(card) && (card.joker ? this.joker : this.write(card)) === name;
    });
  }

  /* The penalty of a cards text by `penalties` (each rank's and the joker's, from the engine), or
   * "?" while a card cannot be read. */
  penalty(text, penalties) {
    let total = 0;
    for (const token of this.tokens(text)) {
      const card = this.read(token);
      const value = card ? penalties[card.joker ? this.joker : card.rank] : undefined;
      if (value === undefined) return "?";
      total += value;
    }
    return String(total);
  }
}
