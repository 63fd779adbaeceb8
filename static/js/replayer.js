/**
 * The hand replayer on the hand page (/tables/hands/<id>/): steps through a finished hand action
 * by action and draws a small table (seats, stacks, bets, board, pot) for each step.
 *
 * From the first award on, the pot shown is the hand's final pot and the winners say what they
 * won (the server's `won`), so the last frame is the hand's result, not an emptied pot.
 * Fed by the page's `{{ history|json_script:"hand-history" }}` (the hand's JSON, whose `replay`
 * the server builds in tables/histories/timeline.py: one frame per step, the viewer's own hole
 * cards and shown cards only). Controls: #replay-prev, #replay-play, #replay-next, the
 * left/right arrow keys, Home/End, and space to play/pause. No inline script (CSP).
 * @module replayer
 */
import { cardBack, cardElement, moneyFormat } from "./table/format.js";

const STEP_MS = 900;

/**
 * Where seat `seat` of `maxSeats` sits around an oval, as percentages of the felt.
 * Seat 1 at the bottom centre, the others clockwise.
 */
export function seatPosition(seat, maxSeats) {
  const angle = Math.PI / 2 + (2 * Math.PI * (seat - 1)) / maxSeats;
  return { left: 50 + 44 * Math.cos(angle), top: 50 + 40 * Math.sin(angle) };
}

/** Draw one frame of the replay into `felt` (replacing what was there). */
export function drawFrame(felt, replay, step) {
  const frame = step.frame;
  const currency = replay.currency;
  felt.replaceChildren();
  const centre = document.createElement("div");
  centre.className = "replay-centre";
  const board = document.createElement("div");
  board.className = "board replay-board";
  board.setAttribute("role", "group");
  board.setAttribute("aria-label", "Board");
  for (const card of frame.board) board.append(cardElement(card));
  const boards = [board];
  if (frame.board2) {  // run it twice: the second run's board under the first
    board.setAttribute("aria-label", "First board");
    const second = document.createElement("div");
    second.className = "board replay-board replay-board2";
    second.setAttribute("role", "group");
    second.setAttribute("aria-label", "Second board");
    for (const card of frame.board2) second.append(cardElement(card));
    boards.push(second);
  }
  const pot = document.createElement("div");
  pot.className = "replay-pot";
  pot.textContent = `Pot ${moneyFormat(step.pot, currency)}`;
  centre.append(...boards, pot);
  felt.append(centre);
  for (const s of frame.seats) {
    const el = document.createElement("div");
    el.className = "replay-seat";
    el.dataset.seat = s.seat;
    if (s.folded) el.classList.add("folded");
    if (frame.actor === s.seat) el.classList.add("acting");
    if (s.won) el.classList.add("winner");
    const where = seatPosition(s.seat, replay.max_seats);
    el.style.left = `${where.left}%`;
    el.style.top = `${where.top}%`;
    const name = document.createElement("div");
    name.className = "replay-name";
    name.textContent = `${s.name}${s.position ? ` · ${s.position}` : ""}`;
    const stack = document.createElement("div");
    stack.className = "replay-stack";
    stack.textContent = s.allin && s.stack === 0 ? "All-in" : moneyFormat(s.stack, currency);
    const cards = document.createElement("div");
    cards.className = "replay-cards";
    if (s.cards) for (const c of s.cards) cards.append(cardElement(c));
    else if (!s.folded) cards.append(cardBack(), cardBack());
    el.append(cards, name, stack);
    if (s.won) {
      const won = document.createElement("div");
      won.className = "replay-won";
      won.textContent = `Wins ${moneyFormat(s.won, currency)}`;
      el.append(won);
    }
    if (s.bet) {
      const bet = document.createElement("div");
      bet.className = "replay-bet";
      bet.textContent = moneyFormat(s.bet, currency);
      el.append(bet);
    }
    felt.append(el);
  }
}

/** Wire the replayer in `root` to `replay`; returns a small controller (used by tests). */
export function mountReplayer(root, replay) {
  const felt = root.querySelector(".replay-felt");
  const caption = root.querySelector("#replay-step");
  const counter = root.querySelector("#replay-count");
  const prev = root.querySelector("#replay-prev");
  const next = root.querySelector("#replay-next");
  const play = root.querySelector("#replay-play");
  const steps = replay.steps;
  let index = 0;
  let timer = null;

  function show(k) {
    index = Math.max(0, Math.min(steps.length - 1, k));
    drawFrame(felt, replay, steps[index]);
    caption.textContent = steps[index].text;
    counter.textContent = `${index + 1} / ${steps.length}`;
    prev.disabled = index === 0;
    next.disabled = index === steps.length - 1;
    root.dataset.step = String(index);
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    play.textContent = "Play";
    play.setAttribute("aria-pressed", "false");
  }

  function start() {
    if (index >= steps.length - 1) show(0);
    play.textContent = "Pause";
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(() => {
      if (index >= steps.length - 1) stop();
      else show(index + 1);
    }, STEP_MS);
  }

  prev.addEventListener("click", () => { stop(); show(index - 1); });
  next.addEventListener("click", () => { stop(); show(index + 1); });
  play.addEventListener("click", () => (timer === null ? start() : stop()));
  root.addEventListener("keydown", (ev) => {
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: steps.length - 1 };
    if (ev.key in moves) {
      stop();
      show(moves[ev.key]);
      ev.preventDefault();
    } else if (ev.key === " " && ev.target === root) {
      (timer === null ? start : stop)();
      ev.preventDefault();
    }
  });
  root.hidden = false;
  show(0);
  return { show, start, stop, get index() { return index; } };
}

const data = document.getElementById("hand-history");
const root = document.getElementById("replayer");
if (data && root) {
  const history = JSON.parse(data.textContent);
  if (history.replay && history.replay.steps.length) mountReplayer(root, history.replay);
}
