/**
 * Recompute a hand's deck from its revealed seed, in the browser (SubtleCrypto), exactly like
 * tables/engine/deck.py: Fisher-Yates from i = 51 down to 1, each index drawn from a SHA-256
 * counter-mode stream (sha256(seed || counter_be64)), one byte per draw with rejection sampling.
 * The stream starts as blocks 0 and 1 concatenated; each later refill is one block.
 * @module verify
 */

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
/** The unshuffled deck: 2c 2d 2h 2s 3c … As. */
export const FRESH_DECK = [...RANKS].flatMap((r) => [...SUITS].map((s) => r + s));

/** @param {string} hex @returns {Uint8Array} */
export function hexToBytes(hex) {
  const clean = hex.trim();
  if (clean.length % 2 || /[^0-9a-f]/i.test(clean)) throw new Error("not a hex string");
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {ArrayBuffer|Uint8Array} buf */
export function bytesToHex(buf) {
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {Uint8Array} data @returns {Promise<Uint8Array>} */
async function sha256(data) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
}

/** sha256(key || counter as 8 big-endian bytes) */
async function block(key, counter) {
  const data = new Uint8Array(key.length + 8);
  data.set(key);
  new DataView(data.buffer).setBigUint64(key.length, BigInt(counter), false);
  return sha256(data);
}

/** The SHA-256 hex of the seed's bytes (the commitment shown at the deal). */
export async function commitmentOf(seedHex) {
  return bytesToHex(await sha256(hexToBytes(seedHex)));
}

/** The 52 cards in dealing order for `seedHex` (deck[0] is dealt first). */
export async function shuffledDeck(seedHex) {
  const key = hexToBytes(seedHex);
  const first = await block(key, 0);
  const second = await block(key, 1);
  let stream = new Uint8Array(64);
  stream.set(first);
  stream.set(second, 32);
  let next = 2;
  let pos = 0;
  const deck = [...FRESH_DECK];
  for (let i = 51; i > 0; i--) {
    const n = i + 1;
    const limit = 256 - (256 % n);
    let byte;
    for (;;) {
      if (pos === stream.length) {
        stream = await block(key, next);
        next += 1;
        pos = 0;
      }
      byte = stream[pos++];
      if (byte < limit) break;
    }
    const j = byte % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/**
 * Where each dealt card came from: hole cards round-robin in `dealOrder` (two rounds), then
 * burn, flop ×3, burn, turn, burn, river.
 * @param {string[]} deck
 * @param {number[]} dealOrder seats in dealing order (the hand_start event's `seats`)
 * @returns {{hole: Object<number, string[]>, board: string[]}}
 */
export function dealFrom(deck, dealOrder) {
  const n = dealOrder.length;
  const hole = {};
  dealOrder.forEach((seat, k) => { hole[seat] = [deck[k], deck[n + k]]; });
  const b = 2 * n;
  const board = [deck[b + 1], deck[b + 2], deck[b + 3], deck[b + 5], deck[b + 7]];
  return { hole, board };
}

/**
 * Verify a finished hand: the seed matches the commitment, and every card seen (board, shown
 * and own hole cards) is where the deck puts it.
 * @param {{seed: string, commitment: string, dealOrder: number[], board: string[],
 *          known: Object<number, string[]>}} hand
 * @returns {Promise<{ok: boolean, commitmentOk: boolean, mismatches: string[],
 *          deal: {hole: Object<number, string[]>, board: string[]}}>}
 */
export async function verifyHand({ seed, commitment, dealOrder, board, known }) {
  const commitmentOk = (await commitmentOf(seed)) === commitment.trim().toLowerCase();
  const deal = dealFrom(await shuffledDeck(seed), dealOrder);
  const mismatches = [];
  board.forEach((card, i) => {
    if (deal.board[i] !== card) mismatches.push(`board card ${i + 1}: ${card} ≠ ${deal.board[i]}`);
  });
  for (const [seat, cards] of Object.entries(known)) {
    const dealt = deal.hole[seat] || [];
    if (!cards || cards.some((c) => !dealt.includes(c))) {
      mismatches.push(`seat ${seat}: ${cards} ≠ ${dealt.join(" ")}`);
    }
  }
  return { ok: commitmentOk && mismatches.length === 0, commitmentOk, mismatches, deal };
}

/**
 * Gather what `verifyHand` needs from the hand-history JSON (/tables/hands/<id>.json).
 * @param {object} history
 */
export function handFromHistory(history) {
  const start = history.events.find((e) => e.type === "hand_start") || {};
  const known = {};
  let board = [];
  for (const e of history.events) {
    if ((e.type === "hole_cards" || e.type === "shown") && e.cards) known[e.seat] = e.cards;
    if (e.type === "board") board = e.board;
  }
  if (history.result && history.result.board) board = history.result.board;
  return { seed: history.seed, commitment: history.commitment,
    dealOrder: start.seats || [], board, known };
}
