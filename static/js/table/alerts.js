/**
 * "Your turn" for a player whose table is not the window in front: the tab title blinks
 * ("▶ Your turn — Oak" / the page title) and the favicon turns into a play sign, so a player
 * with two tables in two tabs sees which one waits for him. Cleared when the turn ends or the
 * tab gets the focus.
 * @module table/alerts
 */

const BLINK_MS = 1000;

export class TurnAlert {
  /**
   * @param {object} opts
   * @param {string} opts.tableName
   * @param {string} opts.turnIcon URL of the favicon shown while the alert is on
   */
  constructor({ tableName, turnIcon }) {
    this.baseTitle = document.title;
    this.alertTitle = `▶ Your turn — ${tableName}`;
    this.icon = document.querySelector("link[rel~=icon]");
    this.baseIcon = this.icon ? this.icon.href : null;
    this.turnIcon = turnIcon;
    this.myTurn = false;
    this.blinker = null;
    const recheck = () => this.update();
    window.addEventListener("focus", recheck);
    window.addEventListener("blur", recheck);
    document.addEventListener("visibilitychange", recheck);
  }

  /** Whether the player is looking at this tab now. */
  static watched() {
    return document.visibilityState === "visible" && document.hasFocus();
  }

  /** @param {boolean} myTurn whether the table waits for this player now */
  set(myTurn) {
    if (myTurn === this.myTurn) return;
    this.myTurn = myTurn;
    this.update();
  }

  get on() { return this.blinker !== null; }

  update() {
    const want = this.myTurn && !TurnAlert.watched();
    if (want === this.on) return;
    if (want) {
      let lit = true;
      document.title = this.alertTitle;
      this.setIcon(this.turnIcon);
      this.blinker = setInterval(() => {
        lit = !lit;
        document.title = lit ? this.alertTitle : this.baseTitle;
      }, BLINK_MS);
    } else {
      clearInterval(this.blinker);
      this.blinker = null;
      document.title = this.baseTitle;
      this.setIcon(this.baseIcon);
    }
  }

  setIcon(href) {
    if (this.icon && href) this.icon.href = href;
  }
}
