/**
 * Check a finished hand's deal in the browser (SubtleCrypto), exactly like
 * tables/engine/fairness.py (hands dealt privately, "merkle-v2") and tables/engine/deck.py
 * (older hands whose seed was published, "seed-v1").
 *
 * merkle-v2: the deck was committed as a Merkle root before anyone acted; the players' entropy
 * fixed the deal order after it. Each opened card (board, shown hands, the reader's own cards)
 * comes with its salt and Merkle path: it must lead to the root, at the position the deal order
 * gives. Cards never shown are never opened.
 * @module verify
 */

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
/** The unshuffled deck: 2c 2d 2h 2s 3c … As. */
export const FRESH_DECK = [...RANKS].flatMap((r) => [...SUITS].map((s) => r + s));
const DEPTH = 6;

/** @param {string} hex @returns {Uint8Array} */
export function hexToBytes(hex) {
  const clean = String(hex).trim();
  if (clean.length % 2 || /[^0-9a-f]/i.test(clean)) throw new Error("not a hex string");
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {ArrayBuffer|Uint8Array} buf */
export function bytesToHex(buf) {
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {...(Uint8Array|number[])} parts @returns {Uint8Array} */
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
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

/**
 * `items` shuffled by `key` (deck.py's `shuffled`): Fisher-Yates from the last index down, each
 * index one byte of the SHA-256 counter-mode stream of `key`, with rejection sampling.
 * @template T @param {Uint8Array} key @param {T[]} items @returns {Promise<T[]>}
 */
export async function shuffled(key, items) {
  let stream = concat(await block(key, 0), await block(key, 1));
  let next = 2;
  let pos = 0;
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
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
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// seed-v1 ---------------------------------------------------------------------------------------
/** The SHA-256 hex of the seed's bytes (a seed-v1 hand's commitment). */
export async function commitmentOf(seedHex) {
  return bytesToHex(await sha256(hexToBytes(seedHex)));
}

/** The 52 cards in dealing order for a seed-v1 `seedHex` (deck[0] is dealt first). */
export async function shuffledDeck(seedHex) {
  return shuffled(hexToBytes(seedHex), FRESH_DECK);
}

// Where cards are dealt ---------------------------------------------------------------------
/** Deal positions of the hole cards of the `index`-th player of `players` in dealing order. */
export function holeDeals(players, index) { return [index, players + index]; }

/** Deal positions of the first `cards` board cards (a burn before each street). */
export function boardDeals(players, cards) {
  return [1, 2, 3, 5, 7].slice(0, cards).map((k) => 2 * players + k);
}

/**
 * Deal positions of a second run's own cards (run it twice): after the first run's river
 * (2n + 8 on), a burn before each street; `shared` cards were out when the players agreed.
 */
export function secondBoardDeals(players, shared, cards) {
  let pos = 2 * players + 8;
  const out = [];
  for (const [start, count] of [[0, 3], [3, 1], [4, 1]]) {
    if (start < shared || start >= cards) continue;
    pos += 1;
    for (let k = 0; k < count; k++) out.push(pos + k);
    pos += count;
  }
  return out;
}

// merkle-v2 --------------------------------------------------------------------------------
const leafHash = (position, card, salt) =>
  sha256(concat([0, position], new TextEncoder().encode(card), salt));
const nodeHash = (left, right) => sha256(concat([1], left, right));
const isHex = (v, bytes) => typeof v === "string" && v.length === 2 * bytes && /^[0-9a-f]*$/.test(v);

/** Committed positions in dealing order, from the root and the players' entropy. */
export async function dealOrder(rootHex, entropy) {
  const parts = entropy.map(hexToBytes).sort((a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  });
  const key = await sha256(concat(new TextEncoder().encode("deal"), hexToBytes(rootHex), ...parts));
  return shuffled(key, [...Array(52).keys()]);
}

/** Why `opening` does not prove its card under `rootHex` (null when it does). */
export async function openingProblem(rootHex, order, opening) {
  const o = opening || {};
  const ok = Number.isInteger(o.deal) && o.deal >= 0 && o.deal < 52 && Number.isInteger(o.position)
    && o.position >= 0 && o.position < 52 && FRESH_DECK.includes(o.card) && isHex(o.salt, 16)
    && Array.isArray(o.path) && o.path.length === DEPTH && o.path.every((p) => isHex(p, 32));
  if (!ok) return "a malformed opening";
  if (order[o.deal] !== o.position) {
    return `deal position ${o.deal}: the deal order takes position ${order[o.deal]}, not ${o.position}`;
  }
  let node = await leafHash(o.position, o.card, hexToBytes(o.salt));
  let index = o.position;
  for (const sibling of o.path) {
    const other = hexToBytes(sibling);
    node = index % 2 === 0 ? await nodeHash(node, other) : await nodeHash(other, node);
    index >>= 1;
  }
  return bytesToHex(node) === rootHex
    ? null : `deal position ${o.deal}: ${o.card} with its salt and path does not lead to the root`;
}

/**
 * Every card the reader of a hand's JSON saw, by deal position: the board, shown hands and his
 * own hole cards.
 * @returns {{cards: Map<number, string>, dealOrder: number[], board: string[]}}
 */
export function seenCards(history) {
  const start = history.events.find((e) => e.type === "hand_start") || {};
  const seats = start.seats || [];
  const cards = new Map();
  let board = [];
  let board2 = [];
  let own = 0; // the second run's own cards
  for (const e of history.events) {
    const i = seats.indexOf(e.seat);
    if ((e.type === "hole_cards" || e.type === "shown") && e.cards && i >= 0) {
      holeDeals(seats.length, i).forEach((deal, k) => { if (e.cards[k]) cards.set(deal, e.cards[k]); });
    }
    if (e.type === "board") board = e.board;
    if (e.type === "second_board") { board2 = e.board; own += e.cards.length; }
  }
  if (history.result && history.result.board) board = history.result.board;
  boardDeals(seats.length, board.length).forEach((deal, k) => cards.set(deal, board[k]));
  const shared = board2.length - own;
  secondBoardDeals(seats.length, shared, board2.length)
    .forEach((deal, k) => cards.set(deal, board2[shared + k]));
  return { cards, dealOrder: seats, board };
}

/**
 * Verify a finished hand's deal from its JSON (/tables/hands/<id>.json).
 * @param {object} history
 * @param {string|null} myEntropy what this browser sent for the hand's deck, if it did
 * @returns {Promise<{ok: boolean, problems: string[], proven: number, scheme: string,
 *          entropyUsed: boolean|null}>}
 */
export async function verifyHand(history, myEntropy = null) {
  const proof = history.proof || {};
  const { cards } = seenCards(history);
  const problems = [];
  if (proof.scheme === "seed-v1") {
    if ((await commitmentOf(proof.seed)) !== String(history.commitment).trim().toLowerCase()) {
      problems.push("the seed does not match the commitment");
    }
    const deck = await shuffledDeck(proof.seed);
    for (const [deal, card] of cards) {
      if (deck[deal] !== card) problems.push(`deal position ${deal}: ${card} ≠ ${deck[deal]}`);
    }
    return { ok: !problems.length, problems, proven: cards.size, scheme: proof.scheme, entropyUsed: null };
  }
  if (proof.scheme !== "merkle-v2") {
    return { ok: false, problems: [`unknown proof scheme ${proof.scheme}`], proven: 0, scheme: "", entropyUsed: null };
  }
  if (!isHex(proof.root, 32) || proof.root !== history.commitment) {
    problems.push("the proof's root is not the commitment published at the deal");
  }
  const entropy = (proof.entropy || []).map((e) => e.value);
  if (!entropy.every((v) => isHex(v, 32))) problems.push("the proof's entropy is malformed");
  const entropyUsed = myEntropy ? entropy.includes(myEntropy) : null;
  if (entropyUsed === false) problems.push("your entropy was not used in this deal");
  if (problems.length) return { ok: false, problems, proven: 0, scheme: proof.scheme, entropyUsed };
  const order = await dealOrder(proof.root, entropy);
  const opened = new Map();
  for (const o of [...(proof.openings || []), ...(history.own_openings || [])]) {
    const bad = await openingProblem(proof.root, order, o);
    if (bad) problems.push(bad);
    else opened.set(o.deal, o.card);
  }
  if (new Set(opened.values()).size !== opened.size) problems.push("the same card is opened at two positions");
  for (const [deal, card] of [...cards].sort((a, b) => a[0] - b[0])) {
    if (!opened.has(deal)) problems.push(`deal position ${deal} (${card}) is not opened`);
    else if (opened.get(deal) !== card) problems.push(`deal position ${deal}: ${card} was seen, ${opened.get(deal)} is committed`);
  }
  return { ok: !problems.length, problems, proven: cards.size, scheme: proof.scheme, entropyUsed };
}

/** A sentence for people about `verifyHand`'s answer. */
export function verdict(r) {
  if (!r.ok) return `✗ ${r.problems.join("; ")}`;
  if (r.scheme === "seed-v1") {
    return `✓ Verified in your browser: sha256(seed) equals the commitment and all ${r.proven} cards seen are where the seed's deck puts them.`;
  }
  const mine = r.entropyUsed ? " Your browser's entropy was part of the deal order." : "";
  return `✓ Verified in your browser: all ${r.proven} cards you saw were committed before the deal, at the positions the players' entropy chose.${mine}`;
}
