/**
 * Table sounds, made with WebAudio (no files): a two-note chime when it is your turn, a short
 * tick when the countdown starts. Browsers refuse audio before the page had a user gesture, so
 * the AudioContext is created on the first click or key press, never before.
 * @module table/sound
 */

const TONES = {
  turn: [[660, 0, 0.12], [880, 0.14, 0.16]],
  hurry: [[520, 0, 0.08], [520, 0.16, 0.08]],
};

export class Sound {
  constructor() {
    /** @type {AudioContext|null} */
    this.context = null;
    this.muted = false;
    /** Sounds played so far (for tests and the curious). */
    this.played = 0;
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

  /** @param {"turn"|"hurry"} kind */
  play(kind) {
    const ctx = this.context;
    if (this.muted || !ctx) return false;
    const start = ctx.currentTime + 0.01;
    for (const [freq, at, length] of TONES[kind] || []) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.2, start + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start + at);
      osc.stop(start + at + length + 0.02);
    }
    this.played += 1;
    return true;
  }
}
