/**
 * Drawing the table: an oval felt with the seats around it (the viewer at the bottom), bets,
 * the dealer button, the board and the pots; the turn timer; chips flying to the winners.
 * @module table/render
 */
import { avatarUrl, cardBack, cardElement, chips as amountText, secondsUntil } from "./format.js";

/** Seat `n`'s position on the oval, in percent of the felt, the viewer's seat at the bottom. */
export function seatPosition(n, maxSeats, anchor) {
  const angle = Math.PI / 2 + ((n - anchor) * 2 * Math.PI) / maxSeats;
  return { x: 50 + 47 * Math.cos(angle), y: 50 + 44 * Math.sin(angle) };
}

function lerp(a, b, t) { return a + (b - a) * t; }

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text != null) e.textContent = text;
  return e;
}

/** Hole cards already drawn once (hand:seat:face), so only new cards get the deal animation. */
const dealt = new Set();

function dealIn(hole, key) {
  if (dealt.has(key)) return;
  dealt.add(key);
  if (dealt.size > 200) dealt.delete(dealt.values().next().value);
  hole.querySelectorAll(".card").forEach((c) => c.classList.add("deal-in"));
}

const STATUS_BADGES = { sitting_out: "Sitting out", waiting_bb: "Waits for BB" };
const STREETS = { preflop: "Preflop", flop: "Flop", turn: "Turn", river: "River",
  showdown: "Showdown", over: "Hand over" };

/**
 * Redraw the felt.
 * @param {HTMLElement} felt
 * @param {object} state
 * @param {{canSit: boolean, onSit: (seat: number) => void}} opts
 */
export function renderFelt(felt, state, opts) {
  const { table, hand } = state;
  const anchor = state.you.seat ?? 1;
  felt.querySelectorAll(".bet-chips, .dealer-button").forEach((e) => e.remove());
  const drawn = new Map([...felt.querySelectorAll(".seat")].map((b) => [Number(b.dataset.seat), b]));
  drawn.forEach((b, n) => { if (n > table.max_seats) b.remove(); });
  const occupied = new Map(state.seats.map((s) => [s.seat, s]));
  for (let n = 1; n <= table.max_seats; n++) {
    const pos = seatPosition(n, table.max_seats, anchor);
    const s = occupied.get(n);
    const empty = s ? "" : `empty ${opts.canSit}`;
    let box = drawn.get(n);
    if (empty && box?.dataset.empty === empty) {
      // The same empty seat is kept, not drawn again: a click whose press and release fall
      // on either side of a redraw (an event at a busy table) still reaches its button.
      Object.assign(box.style, { left: `${pos.x}%`, top: `${pos.y}%` });
      continue;
    }
    const fresh = el("div", "seat");
    if (box) box.replaceWith(fresh); else felt.append(fresh);
    box = fresh;
    box.dataset.seat = n;
    box.style.left = `${pos.x}%`;
    box.style.top = `${pos.y}%`;
    if (!s) {
      box.dataset.empty = empty;
      box.classList.add("empty");
      if (opts.canSit) {
        const b = el("button", "sit-here", "Sit here");
        b.type = "button";
        b.setAttribute("aria-label", `Sit in seat ${n}`);
        b.addEventListener("click", () => opts.onSit(n));
        box.append(b);
      } else {
        box.append(el("span", "seat-empty", `Seat ${n}`));
      }
      continue;
    }
    const live = hand && !hand.is_over && s.in_hand;
    const toAct = hand && hand.to_act === n;
    box.classList.toggle("me", n === state.you.seat);
    box.classList.toggle("to-act", !!toAct);
    box.classList.toggle("folded", !!(live && s.folded));
    box.classList.toggle("sitting-out", s.status === "sitting_out");
    box.classList.toggle("winner", !!s.winner);
    box.classList.toggle("allin", !!s.allin);
    const labelBits = [`Seat ${n}`, s.name, `stack ${amountText(s.stack, table)}`];
    if (toAct) labelBits.push("to act");
    if (toAct && s.time_bank_running) labelBits.push("using the time bank");
    box.setAttribute("aria-label", labelBits.join(", "));
    box.setAttribute("role", "group");

    const hole = el("div", "hole");
    if (s.cards) {
      s.cards.forEach((c) => hole.append(cardElement(c)));
      if (live && s.folded) hole.classList.add("mucked");
    } else if (live && s.has_cards) {
      hole.append(cardBack(), cardBack());
    }
    if (hand && hole.children.length) dealIn(hole, `${hand.id}:${n}:${s.cards ? s.cards.join("") : "back"}`);
    box.append(hole);

    const plate = el("div", "plate");
    const picture = avatarUrl(s.avatar);
    if (picture) {  // decorative: the seat's label names the player
      const img = el("img", "avatar");
      Object.assign(img, { src: picture, alt: "", width: 28, height: 28 });
      img.dataset.avatar = s.avatar;
      plate.append(img);
    }
    const name = el("button", "name player-name", s.name); // opens the pop-up (player-card.js)
    name.type = "button";
    name.dataset.playerId = s.player_id;
    name.dataset.playerName = s.name;
    plate.append(name);
    const stack = el("span", "stack", amountText(s.stack, table));
    stack.dataset.stack = s.stack;
    plate.append(stack);
    const badges = [];
    if (s.allin && live) badges.push(s.timed_out ? "Timeout all-in" : "All-in");
    else if (live && s.folded) badges.push("Folded");
    else if (hand && s.in_hand && s.mucked) badges.push("Mucked");
    if (live && s.status === "sitting_out") badges.push("Sits out next hand");
    else if (STATUS_BADGES[s.status]) badges.push(STATUS_BADGES[s.status]);
    if (s.post_bb && !live) badges.push("Posts BB next hand");
    if (s.sit_out_next_bb) badges.push("Sits out at BB");
    if (s.pending_top_up) badges.push(`+${amountText(s.pending_top_up, table)} next hand`);
    if (s.leaving) badges.push("Leaving");
    badges.forEach((b) => plate.append(el("span", "badge", b)));
    const timer = el("div", "timer");
    timer.hidden = true;
    timer.innerHTML = '<div class="timer-bar"><span></span></div>' +
      '<span class="timer-num" role="timer" aria-label="seconds left"></span>' +
      '<span class="time-bank-left" hidden></span>';
    plate.append(timer);
    box.append(plate);

    if (s.winner) {
      const won = el("div", "result", `Wins ${amountText(s.winner, table)}` +
        (s.description ? ` · ${s.description}` : ""));
      box.append(won);
    } else if (s.description) {
      box.append(el("div", "result muted", s.description));
    }
    let last = box; // a seat's bet and button follow it, in reading order

    if (live && s.blind) {
      const b = el("span", `blind-marker ${s.blind.toLowerCase()}`, s.blind);
      b.title = { SB: "Small blind", BB: "Big blind", ST: "Straddle" }[s.blind];
      plate.append(b);
    }
    if (s.bet > 0 && live) {
      const chips = el("div", "bet-chips");
      chips.dataset.seat = n;
      placeBet(chips, pos, pos.y > 50 ? 0.4 : 0.55);
      chips.innerHTML = '<span class="chip" aria-hidden="true"></span>';
      chips.append(el("span", "amount", amountText(s.bet, table)));
      chips.setAttribute("aria-label", `${s.name} bet ${amountText(s.bet, table)}`);
      last.after(chips);
      last = chips;
    }
    if (state.button === n) {
      const d = el("span", "dealer-button", "D");
      d.setAttribute("aria-label", `Dealer button: ${s.name}`);
      d.title = "Dealer button";
      const beside = seatPosition(n + 0.42, table.max_seats, anchor);
      d.style.left = `${lerp(50, beside.x, 0.74)}%`;
      d.style.top = `${lerp(50, beside.y, 0.74)}%`;
      last.after(d);
    }
  }
  renderCenter(felt, state);
  keepBetsClear(felt);
}

/** Put a bet label on the line from the centre to its seat, a fraction `t` of the way. */
function placeBet(chips, pos, t) {
  chips.style.left = `${lerp(50, pos.x, t)}%`;
  chips.style.top = `${lerp(50, pos.y, t)}%`;
}

function overlaps(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * Bets never cover the hand caption: on a small felt (phones) a label that would overlap it
 * moves up (or down) just clear of it, the smallest move that leaves it readable.
 */
export function keepBetsClear(felt) {
  const caption = felt.querySelector("#hand-info");
  if (!caption || !caption.textContent) return;
  const gap = 3;
  const c = caption.getBoundingClientRect();
  const area = { left: c.left - gap, right: c.right + gap, top: c.top - gap, bottom: c.bottom + gap };
  const height = felt.clientHeight;
  felt.querySelectorAll(".bet-chips").forEach((chips) => {
    const b = chips.getBoundingClientRect();
    if (!height || !overlaps(b, area)) return;
    const above = b.top + b.height / 2 < c.top + c.height / 2;
    const shift = above ? area.top - b.bottom : area.bottom - b.top;
    chips.style.top = `calc(${chips.style.top} + ${Math.round(shift)}px)`;
  });
}

function renderCenter(felt, state) {
  const { hand, table } = state;
  const board = felt.querySelector("#board");
  const known = board.dataset.cards || "";
  const cards = hand ? hand.board : [];
  const rabbit = (hand && hand.is_over && hand.rabbit) || [];
  const drawn = [...cards, ...rabbit.map((c) => `(${c})`)].join(" ");
  if (known !== drawn) {
    const before = known ? known.split(" ").filter((c) => !c.startsWith("(")).length : 0;
    board.replaceChildren(...cards.map((c, i) => {
      const e = cardElement(c);
      if (i >= before) e.classList.add("deal-in");
      return e;
    }));
    // The rabbit: dimmed, after the board, never part of it (the hand is settled).
    rabbit.forEach((c) => {
      const e = cardElement(c);
      e.classList.add("rabbit", "deal-in");
      e.setAttribute("aria-label", `${e.getAttribute("aria-label")} (rabbit)`);
      board.append(e);
    });
    for (let i = cards.length + rabbit.length; i < 5; i++) board.append(el("span", "card slot"));
    board.dataset.cards = drawn;
    let label = cards.length ? `Board: ${cards.join(" ")}` : "Board: no cards yet";
    if (rabbit.length) label += `; rabbit hunt: ${rabbit.join(" ")} would have come`;
    board.setAttribute("aria-label", label);
  }
  const board2 = felt.querySelector("#board2");  // run it twice: the second run under the first
  const second = (hand && hand.board2) || (hand && hand.result && hand.result.board2) || null;
  board2.hidden = !second;
  if (second && board2.dataset.cards !== second.join(" ")) {
    board2.replaceChildren(...second.map((c) => cardElement(c)));
    board2.dataset.cards = second.join(" ");
    board2.setAttribute("aria-label", `Second board: ${second.join(" ")}`);
  }
  if (!second) board2.dataset.cards = "";
  const pots = felt.querySelector("#pots");
  pots.replaceChildren();
  if (hand && hand.pot_total > 0 && !hand.is_over) {
    const list = (hand.pots || []).filter((p) => p.amount > 0);
    const total = el("div", "pot-total");
    total.append(el("span", "label", "Pot "), el("strong", null, amountText(hand.pot_total, table)));
    pots.append(total);
    if (list.length > 1) {
      list.forEach((p, i) => {
        const row = el("div", "pot-line", `${i === 0 ? "Main pot" : `Side pot ${i}`}: ${amountText(p.amount, table)}`);
        row.dataset.pot = i;
        pots.append(row);
      });
    }
  }
  const info = felt.querySelector("#hand-info");
  let text = "";
  const ready = state.seats.filter((s) => s.status !== "sitting_out").length;
  if (!hand) text = ready < 2 ? "Waiting for players" : "The first hand starts soon";
  else text = `Hand #${hand.number} · ${STREETS[hand.street] || hand.street}`;
  info.textContent = text;
}

/**
 * Update the acting seat's timer: a quiet bar for the first part, then the visible countdown.
 * @returns {{phase: "none"|"quiet"|"countdown", seconds: number}}
 */
export function tickTimer(felt, state) {
  felt.querySelectorAll(".timer").forEach((t) => { t.hidden = true; });
  const hand = state.hand;
  if (!hand || hand.to_act == null || !hand.deadline) return { phase: "none", seconds: 0 };
  const box = felt.querySelector(`.seat[data-seat="${hand.to_act}"] .timer`);
  const left = Math.max(0, secondsUntil(hand.deadline, state.clockOffset));
  const toCountdown = secondsUntil(hand.countdown_at, state.clockOffset);
  const countdownTotal = state.table.countdown_seconds || 20;
  if (!box) return { phase: "none", seconds: left };
  box.hidden = false;
  const bar = box.querySelector(".timer-bar span");
  const num = box.querySelector(".timer-num");
  const bank = box.querySelector(".time-bank-left");
  const seat = state.seats.find((s) => s.seat === hand.to_act);
  bank.hidden = !(seat && seat.time_bank_running);
  if (seat && seat.time_bank_running) {
    // The countdown ended and the time bank runs: its own bar, from full to empty.
    box.className = "timer bank";
    bar.style.width = `${Math.min(100, (100 * left) / Math.max(1, seat.time_bank))}%`;
    num.textContent = "";
    bank.textContent = `Time bank ${Math.ceil(left)} s`;
    return { phase: "bank", seconds: left };
  }
  if (toCountdown > 0) {
    box.className = "timer quiet";
    const quiet = state.table.action_seconds || 10;
    bar.style.width = `${Math.min(100, (100 * toCountdown) / quiet)}%`;
    num.textContent = "";
    return { phase: "quiet", seconds: left };
  }
  box.className = "timer countdown";
  bar.style.width = `${Math.min(100, (100 * left) / countdownTotal)}%`;
  num.textContent = `${Math.ceil(left)}`;
  return { phase: "countdown", seconds: left };
}

/** At the end of a betting round, slide the bets on the table into the pot. */
export function sweepBets(felt) {
  felt.querySelectorAll(".bet-chips").forEach((chips) => {
    const ghost = chips.cloneNode(true);
    ghost.className = "chip-sweep";
    ghost.removeAttribute("aria-label");
    ghost.setAttribute("aria-hidden", "true");
    felt.append(ghost);
    requestAnimationFrame(() => requestAnimationFrame(() => {
      ghost.style.left = "50%";
      ghost.style.top = "62%";
      ghost.classList.add("moving");
    }));
    setTimeout(() => ghost.remove(), 700);
  });
}

/** Animate chips from the pot to each winner's seat. */
export function flyChips(felt, fly, table) {
  const pot = felt.querySelector("#pots");
  const start = pot.getBoundingClientRect();
  const base = felt.getBoundingClientRect();
  fly.forEach(({ seat, amount }, k) => {
    const target = felt.querySelector(`.seat[data-seat="${seat}"]`);
    if (!target) return;
    const end = target.getBoundingClientRect();
    const chip = el("div", "chip-fly");
    chip.innerHTML = '<span class="chip" aria-hidden="true"></span>';
    chip.append(el("span", "amount", amountText(amount, table)));
    chip.style.left = `${start.left - base.left + start.width / 2}px`;
    chip.style.top = `${start.top - base.top + start.height / 2}px`;
    felt.append(chip);
    requestAnimationFrame(() => requestAnimationFrame(() => {
      chip.style.transitionDelay = `${k * 120}ms`;
      chip.style.transform = `translate(${end.left - start.left + (end.width - start.width) / 2}px, ` +
        `${end.top - start.top + (end.height - start.height) / 2}px)`;
      chip.classList.add("moving");
    }));
    setTimeout(() => chip.remove(), 1600 + k * 120);
  });
}
