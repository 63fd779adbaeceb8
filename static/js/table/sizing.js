/**
 * Bet sizing without the page: the raise-to presets and the words on the raise button. Pure
 * functions of the legal-action data, so they can be tested on their own.
 *
 * Pot-sized amounts follow the pot-limit rule: a raise of a fraction `f` of the pot is to
 * `current bet + f x (pot + call)`, where the pot already holds every bet on the table.
 * Preflop the presets are 2.5x and 3x: of the big blind in an unopened pot, of the bet to
 * call when facing a raise (the usual online convention); postflop ⅓, ½ and ¾ of the pot.
 * A player who set his own (his profile: `s.custom`, multiples preflop and percentages of the
 * pot postflop) gets his instead.
 * @module table/sizing
 */

/**
 * Clamp a raise-to amount into the legal range; amounts between the ends are whole units.
 * @param {number} amount minor units
 * @param {{min_to: number, max_to: number}} legal
 * @param {number} whole minor units per whole currency unit
 */
export function clampAmount(amount, legal, whole = 1) {
  if (!Number.isFinite(amount)) return legal.min_to;
  let a = Math.round(amount);
  if (a >= legal.max_to) return legal.max_to;
  if (a <= legal.min_to) return legal.min_to;
  a -= a % whole;
  return Math.max(legal.min_to, a);
}

/**
 * What the biggest legal amount is: everything the player has ("allin"), the pot limit below
 * that ("pot"), or a fixed limit size ("limit").
 * @param {object} s sizing facts (see `presets`)
 * @returns {"allin"|"pot"|"limit"}
 */
export function maxKind(s) {
  if (s.legal.max_to >= s.allInTo) return "allin";
  return s.structure === "FL" ? "limit" : "pot";
}

/**
 * Preset raise-to amounts, each clamped into the legal range. No "All-in" preset unless the
 * maximum really is all-in (pot-limit caps it at the pot). No-limit and pot-limit keep their
 * presets when the only legal raise is one amount (all-in), so the bar does not change shape;
 * fixed-limit has none.
 * @param {object} s
 * @param {{min_to: number, max_to: number, call_amount: number}} s.legal the server's options
 * @param {string} s.structure "NL", "PL" or "FL"
 * @param {string} s.street "preflop", "flop", ...
 * @param {number} s.pot every chip in the pot, bets on the table included
 * @param {number} s.currentBet the highest bet this round
 * @param {number} s.bigBlind
 * @param {number} s.allInTo the player's bet this round plus his stack behind
 * @param {number} [s.whole] minor units per whole currency unit
 * @param {{preflop?: number[], postflop?: number[]}} [s.custom] the player's own sizes
 * @returns {Array<{id: string, label: string, amount: number}>}
 */
export function presets(s) {
  const { legal } = s;
  if (s.structure === "FL") return [];
  const c = (a) => clampAmount(a, legal, s.whole || 1);
  const call = legal.call_amount || 0;
  const potPart = (num, den) => s.currentBet + Math.floor((num * (s.pot + call)) / den);
  const list = [{ id: "min", label: "Min", amount: legal.min_to }];
  const custom = s.custom || {};
  if (s.street === "preflop") {
    const opened = s.currentBet > s.bigBlind;
    const base = opened ? s.currentBet : s.bigBlind;
    for (const x of custom.preflop?.length ? custom.preflop : [2.5, 3]) {
      list.push({ id: `x${x}`, label: `${x}x`, amount: c(Math.floor((Math.round(x * 10) * base) / 10)) });
    }
  } else if (custom.postflop?.length) {
    for (const p of custom.postflop) {
      list.push({ id: `pot${p}`, label: `${p}% Pot`, amount: c(potPart(p, 100)) });
    }
  } else {
    list.push({ id: "third", label: "⅓ Pot", amount: c(potPart(1, 3)) },
      { id: "half", label: "½ Pot", amount: c(potPart(1, 2)) },
      { id: "three-quarters", label: "¾ Pot", amount: c(potPart(3, 4)) });
  }
  list.push({ id: "pot", label: "Pot", amount: c(potPart(1, 1)) });
  if (maxKind(s) === "allin") list.push({ id: "allin", label: "All-in", amount: legal.max_to });
  return list;
}

/**
 * The raise button's suffix for an amount: " (all-in)" when it is everything the player has,
 * " (pot)" for the pot-limit maximum below that, else nothing.
 * @param {object} s sizing facts (see `presets`)
 * @param {number} amount raise-to
 */
export function amountNote(s, amount) {
  if (amount >= s.allInTo) return " (all-in)";
  if (amount === s.legal.max_to && maxKind(s) === "pot") return " (pot)";
  return "";
}

/**
 * The line under the amount box: "Fixed limit: 4" (fixed-limit), "Only 198 (all-in)" when a
 * no-limit or pot-limit raise has one legal amount, else "4 – 198".
 * @param {object} s sizing facts (see `presets`)
 * @param {(amount: number) => string} fmt the amount for people (money or big blinds)
 */
export function rangeText(s, fmt) {
  const { min_to: min, max_to: max } = s.legal;
  if (s.structure === "FL") return `Fixed limit: ${fmt(min)}`;
  if (min === max) return `Only ${fmt(min)}${amountNote(s, min)}`;
  return `${fmt(min)} – ${fmt(max)}`;
}
