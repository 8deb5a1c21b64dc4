// Play against the bots: sends the player's choice, shows the server's answer.
// No rule of the game here: the server lists the legal actions and draws the table
// (the "html" of /api/play/{id}); this script posts the button pressed, puts the
// answer in place, maps keys to the buttons (table-keys.js, shared with the online
// tables) and runs the claim countdown.
import { roving } from "./roving.js";
import { bindKeys } from "./table-keys.js";

const root = document.getElementById("play");
const game = root ? root.dataset.game : null;
let busy = false;
let timer = null;

function table() {
  return document.getElementById("table");
}

function show(html, focusHand) {
  root.innerHTML = html;
  startCountdown();
  if (focusHand) {
    const first = root.querySelector(".hand button:not([disabled]), .claims button, [data-key='n']");
    if (first) first.focus({ preventScroll: true });
  }
}

function showError(message) {
  let box = root.querySelector(".play-error");
  if (!box) {
    box = document.createElement("p");
    box.className = "play-error";
    box.setAttribute("role", "alert");
    table().prepend(box);
  }
  box.textContent = message;
}

async function send(path, body, query = "") {
  if (busy) return;
  busy = true;
  try {
    const response = await fetch(`/api/play/${game}${path}?html=1${query}`, {
      method: body === null ? "GET" : "POST",
      headers: body === null ? {} : { "Content-Type": "application/json" },
      body: body === null ? undefined : JSON.stringify(body),
    });
    const answer = await response.json();
    if (response.ok) {
      show(answer.html, body !== null);
    } else if (response.status === 409) {
      // the table moved on: show it as it is now, with the message
      const now = await fetch(`/api/play/${game}?html=1`);
      if (now.ok) show((await now.json()).html, true);
      showError(answer.error);
    } else {
      showError(answer.error);
    }
  } catch (err) {
    showError(String(err));
  } finally {
    busy = false;
  }
}

function stopCountdown() {
  if (timer !== null) clearInterval(timer);
  timer = null;
}

function startCountdown() {
  stopCountdown();
  const t = table();
  const box = root.querySelector(".countdown");
  if (!t || !box || t.dataset.toAct !== "true" || !t.dataset.countdown) return;
  let left = Number(t.dataset.countdown);
  const secs = box.querySelector(".secs");
  const bar = box.querySelector("progress");
  box.hidden = false;
  timer = setInterval(() => {
    left -= 1;
    secs.textContent = String(left);
    bar.value = left;
    if (left <= 0) {
      stopCountdown();
      const pass = root.querySelector("button[value='pass']");
      if (pass) pass.click();
    }
  }, 1000);
}

if (root) {
  root.addEventListener("submit", (event) => {
    event.preventDefault();
    stopCountdown();
    const form = event.target;
    const button = event.submitter;
    const hand = Number(form.elements.hand.value);
    if (button && button.name === "next") {
      send("/next", { hand });
    } else if (button && button.name === "action") {
      send("/act", { hand, seq: Number(form.elements.seq.value), action: button.value });
    }
  });
  root.addEventListener("click", (event) => {
    const link = event.target.closest(".hint-link");
    if (!link) return;
    event.preventDefault();
    send("", null, "&hint=1");
  });
  bindKeys(root);
  // the hand is one tab stop; Left/Right/Home/End move between its tiles (it is redrawn
  // on every answer: roving() finds the tab stop again by the tile's key)
  roving(root, { rows: ".hand", items: ".hand button" });
  startCountdown();
}
