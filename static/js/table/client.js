/**
 * The table socket: connects, reconnects by itself with the last applied version (the server
 * answers with the missed events or a snapshot), keeps a heartbeat, and notices going offline.
 * @module table/client
 */

const HEARTBEAT_MS = 10000;
const SILENCE_MS = 25000;
const BACKOFF_MS = [250, 500, 1000, 2000, 4000];
/** Messages that move money: each carries a request id made here, and is sent again after a
 * reconnect until the server answers it (`done` or `error`); the server moves money once. */
const MONEY_TYPES = new Set(["sit", "top_up", "leave"]);

/** 32 random hex digits (crypto.randomUUID needs a secure context; this works on plain http). */
function requestId() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0")).join("");
}

export class TableClient {
  /**
   * @param {object} opts
   * @param {string} opts.path e.g. "/ws/tables/3/"
   * @param {(msg: object) => void} opts.onMessage
   * @param {(status: "connecting"|"online"|"offline"|"reconnecting") => void} opts.onStatus
   * @param {() => number|null} opts.lastVersion the last version applied by the page
   */
  constructor({ path, onMessage, onStatus, lastVersion }) {
    Object.assign(this, { path, onMessage, onStatus, lastVersion });
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.lastHeard = Date.now();
    this.refs = 0;
    /** @type {Map<string, object>} money messages not answered yet, by ref */
    this.unanswered = new Map();
    window.addEventListener("offline", () => this.goOffline());
    window.addEventListener("online", () => this.reconnectNow());
    setInterval(() => this.heartbeat(), HEARTBEAT_MS);
  }

  url() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const last = this.lastVersion();
    const query = last == null ? "" : `?last_version=${last}`;
    return `${proto}://${location.host}${this.path}${query}`;
  }

  connect() {
    clearTimeout(this.timer);
    if (!navigator.onLine) { this.onStatus("offline"); return; }
    this.onStatus(this.attempt ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.attempt = 0;
      this.lastHeard = Date.now();
      this.onStatus("online");
      for (const message of this.unanswered.values()) ws.send(JSON.stringify(message));
    };
    ws.onmessage = (m) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let msg;
      try { msg = JSON.parse(m.data); } catch { return; }
      if ((msg.type === "done" || msg.type === "error") && msg.ref) this.unanswered.delete(msg.ref);
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (ws !== this.ws) return;
      this.ws = null;
      if (e.code === 4404) { this.onStatus("closed"); return; }
      this.scheduleReconnect();
    };
  }

  scheduleReconnect() {
    clearTimeout(this.timer);
    if (!navigator.onLine) { this.onStatus("offline"); return; }
    this.onStatus("reconnecting");
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** The network went away: drop the socket (browsers may keep it half-open) and wait. */
  goOffline() {
    this.drop();
    this.onStatus("offline");
  }

  reconnectNow() {
    this.drop();
    this.attempt = 1;
    this.connect();
  }

  drop() {
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    if (ws) { try { ws.close(); } catch { /* already closed */ } }
  }

  heartbeat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > SILENCE_MS) {
      this.drop();
      this.scheduleReconnect();
      return;
    }
    this.send({ type: "ping" });
  }

  get open() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }

  /** Send one message; returns its `ref`, or null when the socket is not open (a money
   * message is then sent once it is). */
  send(message) {
    const ref = `c-${++this.refs}`;
    const full = { ...message, ref };
    if (MONEY_TYPES.has(message.type)) {
      full.request_id = requestId();
      this.unanswered.set(ref, full);
    }
    if (!this.open) return MONEY_TYPES.has(message.type) ? ref : null;
    this.ws.send(JSON.stringify(full));
    return ref;
  }
}
