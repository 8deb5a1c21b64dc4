// An online table: keeps the table's WebSocket open and shows what the server sends.
// No rule of the game here: the server draws the table for this seat (the "html" of each
// state message, asked for with ?html=1) and checks every move; this script sends the
// button pressed (act, next, back, chat), maps keys to the buttons (table-keys.js, the
// same keys as the game against the bots), counts the timers down, shows the chat
// (as text, never as markup) and reconnects by itself: with growing waits after a lost
// connection, at once when the page is shown again (a phone that slept) or the network
// comes back.  Protocol: docs/online.md.
import { armTimers, bindKeys, tickTimers } from "./table-keys.js";
import { bindCopy } from "./copy-links.js";
import { roving } from "./roving.js";

const PING_MS = 25000; // a ping keeps idle proxies from closing the socket ...
const PONG_MS = 5000; // ... and a socket that does not answer one is given up
const MAX_WAIT_MS = 15000;
const CHAT_SHOWN = 100;
const FINAL = { 4404: "gone", 4403: "badSeat", 4410: "closed" }; // no reconnecting
const MOVED = 4421; // another server process holds the table: open the page there

const root = document.getElementById("online");
if (root) start(root);

function start(root) {
  const texts = JSON.parse(root.dataset.texts);
  const play = document.getElementById("play");
  const conn = document.getElementById("conn");
  const errorBox = document.getElementById("online-error");
  const chatLines = document.getElementById("chat-lines");
  const chatForm = document.getElementById("chat-form");
  const title = document.title;
  let ws = null;
  let failures = 0;
  let retry = null;
  let stopped = false;
  let pinger = null;
  let pongWait = null;
  let sent = null; // "hand:seq" of the act sent and not yet answered by a new state
  let movedTo = null; // the page at the server process that holds the table

  function socketUrl() {
    const url = new URL(root.dataset.socket, location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("html", "1");
    url.searchParams.set("lang", document.documentElement.lang);
    return url.href;
  }

  function setConn(text, state) {
    conn.textContent = text;
    conn.dataset.state = state;
  }

  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = false;
  }

  function clearError() {
    errorBox.hidden = true;
    errorBox.textContent = "";
  }

  function connect() {
    clearTimeout(retry);
    retry = null;
    if (stopped || (ws && ws.readyState <= WebSocket.OPEN)) return;
    if (navigator.onLine === false) {
      setConn(texts.offline, "lost"); // the "online" event brings it back
      return;
    }
    setConn(texts.connecting, "connecting");
    const socket = new WebSocket(socketUrl());
    ws = socket;
    socket.addEventListener("open", () => {
      if (ws !== socket) return;
      failures = 0;
      setConn(texts.connected, "open");
      clearInterval(pinger);
      pinger = setInterval(ping, PING_MS);
    });
    socket.addEventListener("message", (event) => {
      if (ws === socket) receive(JSON.parse(event.data));
    });
    socket.addEventListener("close", (event) => {
      if (ws === socket) lost(event.code);
    });
  }

  function lost(code) {
    ws = null;
    sent = null;
    clearInterval(pinger);
    clearTimeout(pongWait);
    if (code === MOVED && movedTo) {
      stopped = true;
      setConn(texts.errors.moved, "connecting");
      location.assign(movedTo);
      return;
    }
    if (FINAL[code]) {
      stopped = true;
      setConn(texts[FINAL[code]], "closed");
      return;
    }
    const wait = Math.min(MAX_WAIT_MS, 500 * 2 ** failures) * (0.75 + Math.random() / 2);
    failures += 1;
    setConn(texts.lost.replace("{s}", String(Math.ceil(wait / 1000))), "lost");
    retry = setTimeout(connect, wait);
  }

  function giveUp() {
    // a socket that went quiet (a phone that slept, a network that changed): drop it
    // and open a new one now, rather than wait for the browser to notice
    const old = ws;
    ws = null;
    if (old) old.close();
    failures = 0;
    lost(1006);
    clearTimeout(retry);
    connect();
  }

  function ping() {
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({ type: "ping" }));
    clearTimeout(pongWait);
    pongWait = setTimeout(giveUp, PONG_MS);
  }

  function send(message) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      showError(texts.notSent);
      connect();
      return false;
    }
    ws.send(JSON.stringify(message));
    return true;
  }

  function receive(message) {
    if (message.type === "state") {
      draw(message);
    } else if (message.type === "chat") {
      addChat(message.line);
    } else if (message.type === "error" && message.code === "moved") {
      const url = new URL(message.url, location.href);
      if (url.protocol === "http:" || url.protocol === "https:") movedTo = url.href;
    } else if (message.type === "error") {
      sent = null;
      for (const b of play.querySelectorAll("#act-form button")) b.disabled = false;
      const said = texts.errors[message.code];
      showError(said ? `${said} (${message.message})` : message.message);
    } else if (message.type === "pong") {
      clearTimeout(pongWait);
    }
  }

  function draw(state) {
    const focusInTable = play.contains(document.activeElement);
    const keyOf = play.querySelector("#act-form") ? document.activeElement?.dataset?.key : null;
    sent = null;
    clearError();
    if (typeof state.html === "string") play.innerHTML = state.html;
    else showError(texts.notDrawn); // (a server bug: the state came without its drawing)
    armTimers(play);
    if (state.chat) {
      chatLines.replaceChildren();
      for (const line of state.chat) addChat(line);
    }
    const hand = state.hand;
    const toAct = Boolean(hand && hand.to_act);
    document.title = toAct ? `● ${texts.yourTurn} · ${title}` : title;
    // keep the keyboard where it was: on the same key, else the first choice
    if (toAct && (focusInTable || document.activeElement === document.body)) {
      const same = keyOf ? play.querySelector(`[data-key="${CSS.escape(keyOf)}"]:not([disabled])`) : null;
      const first = same || play.querySelector("#act-form button:not([disabled])");
      if (first) first.focus({ preventScroll: true });
    }
  }

  function addChat(line) {
    const item = document.createElement("li");
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = line.nickname ?? "?";
    item.append(who, document.createTextNode(`: ${line.text}`));
    chatLines.append(item);
    while (chatLines.children.length > CHAT_SHOWN) chatLines.firstElementChild.remove();
    chatLines.scrollTop = chatLines.scrollHeight;
  }

  play.addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    const button = event.submitter;
    if (!button) return;
    const hand = form.elements.hand ? Number(form.elements.hand.value) : null;
    if (button.name === "action") {
      const seq = Number(form.elements.seq.value);
      const key = `${hand}:${seq}`;
      if (sent === key) return; // one answer per decision: the first press counts
      if (send({ type: "act", hand, seq, action: button.value })) {
        sent = key;
        for (const b of form.querySelectorAll("button")) b.disabled = true;
      }
    } else if (button.name === "next") {
      if (send({ type: "next", hand })) button.disabled = true;
    } else if (button.name === "back") {
      if (send({ type: "back" })) button.disabled = true;
    }
  });

  if (chatForm) {
    chatForm.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return; // back to the table: its keys work again
      const first = play.querySelector("#act-form button:not([disabled])");
      if (first) first.focus();
      else event.target.blur();
    });
    chatForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = chatForm.elements.text;
      const text = input.value.trim();
      if (text && send({ type: "chat", text })) input.value = "";
    });
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible" || stopped) return;
    if (!ws || ws.readyState > WebSocket.OPEN) {
      failures = 0;
      connect();
    } else if (ws.readyState === WebSocket.OPEN) {
      ping(); // asleep for a while? a socket that does not answer is replaced
    }
  });
  window.addEventListener("online", () => {
    if (!stopped && !ws) {
      failures = 0;
      connect();
    }
  });
  window.addEventListener("pagehide", () => {
    stopped = true; // a reload or another page: no reconnecting from this one
    if (ws) ws.close(1000);
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) {
      stopped = false; // back from the browser's page cache
      failures = 0;
      connect();
    }
  });

  bindKeys(play);
  // the hand is one tab stop; arrows move between its tiles (as in the bot game)
  roving(play, { rows: ".hand", items: ".hand button" });
  bindCopy(root);
  armTimers(play);
  setInterval(() => tickTimers(play), 250);
  connect();
}
