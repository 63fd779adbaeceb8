/** Formatting helpers: money in minor units, cards, seat names. @module table/format */

const RANK_NAMES = { 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
  9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/**
 * Money for people, by the rules of cashier/money.py `money_format` (the one formatter;
 * tests/browser/test_money_format_browser.py compares the two on a table of amounts):
 * real money (cents) "$5" for whole dollars, else "$2.50", thousands separated ("$1,234.56"),
 * the sign before the dollar sign ("-$2.50"); play money (chips) the count, thousands
 * separated ("1,250", "-1,250"), no unit word.
 * @param {number} amount integer minor units
 * @param {string} currency "REAL" or "PLAY"
 */
export function moneyFormat(amount, currency) {
  if (amount == null) return "";
  const sign = amount < 0 ? "-" : "";
  const abs = Math.abs(amount);
  if (currency === "REAL") {
    const dollars = Math.floor(abs / 100).toLocaleString("en-US");
    const cents = abs % 100;
    return cents ? `${sign}$${dollars}.${String(cents).padStart(2, "0")}` : `${sign}$${dollars}`;
  }
  return sign + abs.toLocaleString("en-US");
}

let bigBlindUnits = false;

/** Show table amounts (stacks, bets, pots) in big blinds instead of money (a player setting). */
export function showBigBlinds(on) { bigBlindUnits = !!on; }

/** Whether table amounts are shown in big blinds (the "In BB" setting). */
export function inBigBlinds() { return bigBlindUnits; }

/**
 * An amount in big blinds: "12.5 BB" (one decimal at most).
 * @param {number} amount minor units
 * @param {number} bigBlind minor units
 */
export function bigBlinds(amount, bigBlind) {
  if (amount == null) return "";
  const bb = Math.round((amount * 10) / bigBlind) / 10;
  return `${bb.toLocaleString("en-US")} BB`;
}

/**
 * An amount at the table as the player chose to see it: money, or big blinds.
 * @param {number} amount minor units
 * @param {{currency: string, big_blind: number}} table
 */
export function chips(amount, table) {
  return bigBlindUnits ? bigBlinds(amount, table.big_blind) : moneyFormat(amount, table.currency);
}

/** "As" → "Ace of spades" */
export function cardName(card) {
  return `${RANK_NAMES[card[0]]} of ${SUIT_NAMES[card[1]]}`;
}

/** A face-up card element (drawn with CSS). @param {string} card e.g. "Td" */
export function cardElement(card) {
  const el = document.createElement("span");
  const suit = card[1];
  el.className = `card suit-${suit}`;
  el.dataset.card = card;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(card));
  const rank = card[0] === "T" ? "10" : card[0];
  el.innerHTML = `<span class="rank" aria-hidden="true">${rank}</span>` +
    `<span class="suit" aria-hidden="true">${SUIT_SYMBOLS[suit]}</span>`;
  return el;
}

/** A face-down card element. */
export function cardBack() {
  const el = document.createElement("span");
  el.className = "card back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "face-down card");
  return el;
}

/** Cards as words for announcements. */
export function cardsText(cards) {
  return (cards || []).map(cardName).join(", ");
}

/** Seconds from now until an ISO time, using the server clock offset (ms). */
export function secondsUntil(iso, offsetMs = 0) {
  if (!iso) return null;
  return (Date.parse(iso) - (Date.now() + offsetMs)) / 1000;
}

/** Avatar keys the server sends (accounts/avatars.py): a built-in's name or `g` + 12 hex. */
const AVATAR_KEY = /^(g[0-9a-f]{12}|[a-z]{3,8})$/;

/**
 * The picture of an avatar key, or null for anything that is not one: the URL is always this
 * room's own, built from a checked key, never from text a player typed.
 * @param {string|undefined} key
 */
export function avatarUrl(key) {
  return typeof key === "string" && AVATAR_KEY.test(key) ? `/accounts/avatars/${key}.svg` : null;
}
