/**
 * Table sounds, made with WebAudio (no files): a two-note chime when it is your turn, a short
 * tick when the countdown starts, and (unless the player turns them off) the game's own
 * sounds: cards dealt, a knock for a check, chips for a bet, call or raise, a rush of chips for
 * an all-in, a swish for a fold, chips pushed to a winner. Browsers refuse audio before the page
 * had a user gesture, so the AudioContext is created on the first click or key press, never
 * before.
 * @module table/sound
 */

/** A voice: [kind, frequency (Hz; a noise's band), start (s), length (s), loudness 0..1]. */
const click = (at, freq = 3200, gain = 0.12) => ["triangle", freq, at, 0.03, gain];
const VOICES = {
  turn: [["sine", 660, 0, 0.12, 0.2], ["sine", 880, 0.14, 0.16, 0.2]],
  hurry: [["sine", 520, 0, 0.08, 0.2], ["sine", 520, 0.16, 0.08, 0.2]],
  deal: [["noise", 4000, 0, 0.05, 0.25], ["noise", 4000, 0.09, 0.05, 0.25]],
  check: [["sine", 170, 0, 0.07, 0.35], ["sine", 150, 0.11, 0.07, 0.35]],
  chips: [click(0), click(0.045, 2700), click(0.1, 3500)],
  allin: [0, 0.035, 0.07, 0.1, 0.14, 0.17, 0.21, 0.25].map((at, i) => click(at, 2600 + 150 * i, 0.1)),
  fold: [["noise", 1800, 0, 0.14, 0.12]],
  win: [0, 0.06, 0.12, 0.2, 0.26].map((at, i) => click(at, 3400 - 120 * i, 0.1)),
};
/** A frame's game sounds play this far apart, at most MAX_PER_FRAME of them (a fold, then the
 * pot pushed to the winner; a long resync burst stays short). */
const GAME_SPACING_S = 0.2;
const MAX_PER_FRAME = 3;

/**
 * The game sound an event of the table's log makes, or null.
 * @param {{type: string, action?: string, allin?: boolean}} ev
 * @returns {"deal"|"check"|"chips"|"allin"|"fold"|"win"|null}
 */
export function soundOf(ev) {
  switch (ev.type) {
    case "hand_start":
    case "board":
      return "deal";
    case "pot_awarded":
      return "win";
    case "action":
      if (ev.action === "fold") return "fold";
      if (ev.action === "check") return "check";
      if (ev.action === "timeout_allin" || ev.allin) return "allin";
      return ["call", "bet", "raise"].includes(ev.action) ? "chips" : null;
    default:
      return null;
  }
}

export class Sound {
  constructor() {
    /** @type {AudioContext|null} */
    this.context = null;
    this.muted = false;
    /** The game's sounds (deals, bets, folds, wins); the turn's chime and tick stay on. */
    this.gameSounds = true;
    /** Sounds played so far, and their kinds in order (for tests and the curious). */
    this.played = 0;
    this.kinds = [];
    this.noise = null;
    const unlock = () => {
      this.unlock();
      window.removeEventListener("pointerdown", unlock, true);
      window.removeEventListener("keydown", unlock, true);
    };
    window.addEventListener("pointerdown", unlock, true);
    window.addEventListener("keydown", unlock, true);
  }

  /** Called from a user gesture: create (or wake) the audio context. */
  unlock() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!this.context) this.context = new Context();
    if (this.context.state === "suspended") this.context.resume().catch(() => {});
  }

  /** The game sounds of one frame's events (nulls skipped, repeats once), one after another. */
  game(kinds) {
    if (!this.gameSounds) return;
    const distinct = [...new Set(kinds.filter(Boolean))].slice(0, MAX_PER_FRAME);
    distinct.forEach((kind, i) => this.play(kind, i * GAME_SPACING_S));
  }

  /** @param {keyof typeof VOICES} kind @param {number} [delay] seconds from now */
  play(kind, delay = 0) {
    const ctx = this.context;
    if (this.muted || !ctx || !VOICES[kind]) return false;
    const start = ctx.currentTime + 0.01 + delay;
    for (const [type, freq, at, length, loud] of VOICES[kind]) {
      let source;
      let output;
      if (type === "noise") {
        [source, output] = this.noiseSource(ctx, freq);
      } else {
        source = output = ctx.createOscillator();
        source.type = type;
        source.frequency.value = freq;
      }
      const gain = ctx.createGain();
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(loud, start + at + Math.min(0.02, length / 3));
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      output.connect(gain).connect(ctx.destination);
      source.start(start + at);
      source.stop(start + at + length + 0.02);
    }
    this.played += 1;
    this.kinds.push(kind);
    return true;
  }

  /** White noise through a band-pass filter at `freq` (cards, a fold): [source, output]. */
  noiseSource(ctx, freq) {
    if (!this.noise) {
      this.noise = ctx.createBuffer(1, Math.round(ctx.sampleRate * 0.25), ctx.sampleRate);
      const data = this.noise.getChannelData(0);
      for (let i = 0; i < data.length; i += 1) data[i] = Math.random() * 2 - 1;
    }
    const source = ctx.createBufferSource();
    source.buffer = this.noise;
    const band = ctx.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = freq;
    source.connect(band);
    return [source, band];
  }
}
