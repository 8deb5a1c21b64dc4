// The calculator: gathers the hand by taps or typing and shows the server's answer.
// No rule of the game here: the server reads the notation and scores it
// (GET /calc/result renders the result; this script only swaps it in). Without a
// connection, the same Python answers in the browser (calc-offline.js), once the
// player has made the calculator available offline.
import { offlineResult } from "./calc-offline.js";
import { roving } from "./roving.js";

const form = document.getElementById("calc");
const field = document.getElementById("hand");
const groupsBox = document.getElementById("groups");
const tools = document.getElementById("tools");
const resultBox = document.getElementById("result-box");
const live = document.getElementById("calc-live");
const texts = document.getElementById("calc-texts").dataset;
const shareButton = document.getElementById("share");
const shareLink = document.getElementById("share-link");
const shareStatus = document.getElementById("share-status");
const tileInfo = {};
for (const b of document.querySelectorAll("#palette button[data-tile]")) {
  tileInfo[b.dataset.tile] = { name: b.getAttribute("aria-label"), src: b.querySelector("img").getAttribute("src") };
}

const empty = () => ({ loose: [], winning: null, melds: [], bonus: [] });
let model = JSON.parse(groupsBox.dataset.model || "null") || empty();
let current = "loose"; // where tapped tiles go: "loose" or a meld index
let selected = null; // {g, i}: g is "loose", "win", "meld:N" or "bonus"
let spans = {}; // "g:i" (a tile) or "g" (a group) -> [first, last] columns (1-based)
let written = null; // the notation this script last wrote
let timer = null;
let asked = 0; // questions sent to the server

const isBonus = (t) => /^[fs][1-4]$/.test(t);
const isSuited = (t) => /^[bkt][1-9]$/.test(t);

// ---------------------------------------------------------------- notation out
function writeNotation() {
  let text = "";
  spans = {};
  const word = (tokens, g, open, close) => {
    if (!tokens.length) return;
    if (text) text += " ";
    const start = text.length + 1;
    text += open;
    let prev = null;
    tokens.forEach((t, i) => {
      const first = text.length + 1;
      if (isSuited(t) && prev && isSuited(prev) && prev[0] === t[0]) text += t[1];
      else if (!isSuited(t) && !isBonus(t) && prev && !isSuited(prev) && !isBonus(prev)) text += t;
      else if (prev && open === "" && (isBonus(t) || isBonus(prev))) text += " " + t;
      else if (prev && (isSuited(t) || isSuited(prev))) text += " " + t;
      else text += t;
      spans[`${g}:${i}`] = [first, text.length];
      prev = t;
    });
    text += close;
    spans[g] = [start, text.length];
  };
  word(model.loose, "loose", "", "");
  model.melds.forEach((m, i) => word(m.tiles, `meld:${i}`, m.open ? "[" : "(", m.open ? "]" : ")"));
  word(model.bonus, "bonus", "", "");
  if (model.winning) {
    text += (text ? " " : "") + "+" + model.winning;
    spans["win:0"] = [text.length - model.winning.length, text.length];
    spans.win = spans["win:0"];
  }
  written = text;
  return text;
}

// ---------------------------------------------------------------- drawing
function tileButton(token, g, i, extra) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "tile";
  b.dataset.tile = token;
  b.dataset.g = g;
  b.dataset.i = String(i);
  const on = selected && selected.g === g && selected.i === i;
  b.setAttribute("aria-pressed", on ? "true" : "false");
  b.setAttribute("aria-label", (tileInfo[token] ? tileInfo[token].name : token) + (extra || ""));
  const img = document.createElement("img");
  img.src = tileInfo[token] ? tileInfo[token].src : "";
  img.alt = "";
  img.width = 30;
  img.height = 40;
  b.append(img);
  return b;
}

function group(g, title, tokens, options) {
  const box = document.createElement("div");
  box.className = "group" + (options.here ? " here" : "");
  box.dataset.group = g;
  const head = document.createElement("div");
  head.className = "group-head";
  const h = document.createElement("h3");
  h.textContent = title + (options.here ? ` (${texts.here})` : "");
  head.append(h);
  for (const [act, label] of options.actions || []) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.act = act;
    b.dataset.g = g;
    b.textContent = label;
    head.append(b);
  }
  box.append(head);
  const list = document.createElement("div");
  list.className = "tiles";
  tokens.forEach((t, i) => list.append(tileButton(t, g, i)));
  if (options.winning) list.append(tileButton(options.winning, "win", 0, ` (${texts.winning})`));
  if (options.winning) list.lastChild.classList.add("winning");
  box.append(list);
  return box;
}

function draw() {
  groupsBox.replaceChildren();
  const loose = group("loose", texts.loose, model.loose, {
    here: current === "loose",
    winning: model.winning,
    actions: current === "loose" ? [] : [["here", texts.addHere]],
  });
  groupsBox.append(loose);
  model.melds.forEach((m, i) => {
    groupsBox.append(
      group(`meld:${i}`, m.open ? texts.open : texts.closed, m.tiles, {
        here: current === i,
        actions: [
          ...(current === i ? [] : [["here", texts.addHere]]),
          ["toggle", m.open ? texts.toggleClosed : texts.toggleOpen],
        ],
      }),
    );
  });
  if (model.bonus.length) groupsBox.append(group("bonus", texts.bonus, model.bonus, {}));
  if (!model.loose.length && !model.melds.length && !model.bonus.length && !model.winning) {
    const p = document.createElement("p");
    p.className = "hint";
    p.textContent = texts.empty;
    groupsBox.append(p);
  }
  const sel = selected;
  tools.querySelector('[data-act="remove"]').disabled = !sel;
  tools.querySelector('[data-act="winning"]').disabled = !sel || sel.g !== "loose";
}

// ---------------------------------------------------------------- editing
function changed() {
  field.value = writeNotation();
  draw();
  ask(0);
}

function addTile(token) {
  if (isBonus(token)) {
    if (!model.bonus.includes(token)) model.bonus.push(token);
  } else if (current === "loose") model.loose.push(token);
  else model.melds[current].tiles.push(token);
  changed();
}

function removeSelected() {
  if (!selected) return;
  const { g, i } = selected;
  if (g === "loose") model.loose.splice(i, 1);
  else if (g === "win") model.winning = null;
  else if (g === "bonus") model.bonus.splice(i, 1);
  else {
    const m = Number(g.slice(5));
    model.melds[m].tiles.splice(i, 1);
    if (!model.melds[m].tiles.length) {
      model.melds.splice(m, 1);
      current = "loose";
    }
  }
  selected = null;
  changed();
}

function markWinning() {
  if (!selected || selected.g !== "loose") return;
  const [token] = model.loose.splice(selected.i, 1);
  if (model.winning) model.loose.push(model.winning);
  model.winning = token;
  selected = { g: "win", i: 0 };
  changed();
}

groupsBox.addEventListener("click", (event) => {
  const b = event.target.closest("button");
  if (!b) return;
  if (b.dataset.act === "here") {
    current = b.dataset.g === "loose" ? "loose" : Number(b.dataset.g.slice(5));
    draw();
  } else if (b.dataset.act === "toggle") {
    const m = model.melds[Number(b.dataset.g.slice(5))];
    m.open = !m.open;
    changed();
  } else if (b.dataset.tile) {
    const key = { g: b.dataset.g, i: Number(b.dataset.i) };
    const same = selected && selected.g === key.g && selected.i === key.i;
    selected = same ? null : key;
    draw();
    const again = groupsBox.querySelector(`button.tile[data-g="${key.g}"][data-i="${key.i}"]`);
    if (again) again.focus();
  }
});

tools.addEventListener("click", (event) => {
  const b = event.target.closest("button[data-act]");
  if (!b) return;
  const act = b.dataset.act;
  if (act === "open-meld" || act === "closed-meld") {
    model.melds.push({ tiles: [], open: act === "open-meld" });
    current = model.melds.length - 1;
    draw();
  } else if (act === "loose") {
    current = "loose";
    draw();
  } else if (act === "winning") markWinning();
  else if (act === "remove") removeSelected();
  else if (act === "clear") {
    model = empty();
    current = "loose";
    selected = null;
    changed();
  }
});

document.getElementById("palette").addEventListener("click", (event) => {
  const b = event.target.closest("button[data-tile]");
  if (!b) return;
  event.preventDefault();
  addTile(b.dataset.tile);
});

// ---------------------------------------------------------------- the server's answer
function query() {
  const data = new FormData(form);
  data.delete("add");
  return new URLSearchParams(data).toString();
}

function ask(delay) {
  // until the server answers, the link to this hand is the hand as the form holds it (a seat
  // chosen and Share tapped, or the link long-pressed, at once); the answer then gives the
  // server's own link (show)
  shareLink.href = new URL(`?${query()}`, location.href).href;
  clearTimeout(timer);
  timer = setTimeout(fetchResult, delay);
}

// The server's result for a query; when the server cannot be reached, the offline
// calculator's (the same function, run in the browser), or null when there is none.
async function resultHtml(q) {
  if (!navigator.onLine) {
    const html = await offlineResult(q); // the browser knows it has no network: no request
    if (html !== null) return html;
  }
  try {
    const answer = await fetch(`${form.dataset.resultUrl}?${q}`, { headers: { Accept: "text/html" } });
    return await answer.text();
  } catch {
    return offlineResult(q);
  }
}

async function fetchResult() {
  const mine = ++asked;
  const html = await resultHtml(query());
  if (html === null) {
    live.textContent = texts.failed;
    return;
  }
  if (mine !== asked) return; // a newer question is on its way
  resultBox.innerHTML = html;
  show(document.getElementById("calc-result"));
}

function show(result) {
  const problem = JSON.parse(result.dataset.problem || "null");
  const serverModel = JSON.parse(result.dataset.model || "null");
  if (serverModel && field.value !== written) {
    // the field holds text typed by hand: draw the tiles the server read from it
    model = serverModel;
    current = "loose";
    selected = null;
    writeNotation();
    draw();
  }
  inPlay(JSON.parse(result.dataset.inplay || "null"));
  placeProblem(problem);
  const share = result.dataset.share;
  if (share) {
    history.replaceState(null, "", share);
    shareLink.href = share;
  }
  const score = result.querySelector(".score");
  live.textContent = problem ? problem.message : score ? `${score.previousElementSibling.textContent} ${score.textContent}` : "";
}

function inPlay(info) {
  if (!info) return;
  for (const b of document.querySelectorAll("#palette button[data-tile]")) {
    b.hidden = info.absent.includes(b.dataset.tile);
  }
  document.querySelector('#palette [data-row="bonus"]').hidden = !info.flowers;
  document.querySelector('[data-flag="lucky_thirteen"]').hidden = !info.lucky;
}

function placeProblem(problem) {
  for (const old of document.querySelectorAll(".problem.inline")) old.remove();
  for (const old of document.querySelectorAll("[aria-invalid]")) old.removeAttribute("aria-invalid");
  for (const old of document.querySelectorAll(".tile.wrong")) {
    old.classList.remove("wrong");
    old.removeAttribute("aria-describedby");
  }
  field.setAttribute("aria-describedby", "hand-help");
  if (!problem) return;
  let tile = null;
  let box = null;
  if (problem.column && field.value === written) {
    for (const [key, [first, last]] of Object.entries(spans)) {
      if (problem.column < first || problem.column > last) continue;
      const parts = key.split(":");
      const isTile = parts.length === 3 || (parts.length === 2 && parts[0] !== "meld");
      if (isTile) {
        const i = parts.pop();
        const g = parts.join(":");
        tile = groupsBox.querySelector(`button.tile[data-g="${g}"][data-i="${i}"]`);
      } else box = groupsBox.querySelector(`[data-group="${key === "win" ? "loose" : key}"]`);
    }
  }
  const where = problem.where === "winning" ? "loose" : problem.where;
  box = box || groupsBox.querySelector(`[data-group="${where}"]`);
  if (!tile && problem.tile) {
    const scope = box || groupsBox;
    tile = scope.querySelector(`button.tile[data-tile="${problem.tile}"]`) || groupsBox.querySelector(`button.tile[data-tile="${problem.tile}"]`);
    if (tile && !box) box = tile.closest("[data-group]");
  }
  const note = document.createElement("p");
  note.className = "problem inline";
  note.id = "inline-problem";
  note.textContent = problem.message;
  const formField = document.getElementById(where);
  if (tile) {
    tile.classList.add("wrong");
    tile.setAttribute("aria-describedby", note.id);
    tile.closest("[data-group]").append(note);
  } else if (box) box.append(note);
  else if (formField && where !== "hand") {
    formField.setAttribute("aria-invalid", "true");
    formField.setAttribute("aria-describedby", note.id);
    formField.closest("p, details").append(note);
  } else {
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", `hand-help ${note.id}`);
    document.getElementById("hand-help").after(note);
  }
}

// ---------------------------------------------------------------- typing, options, share
field.addEventListener("input", () => ask(250));
form.addEventListener("change", (event) => {
  if (event.target !== field && event.target.id !== "house-file") ask(0);
});
document.getElementById("house").addEventListener("input", () => ask(400));
form.addEventListener("submit", (event) => {
  event.preventDefault();
  ask(0);
});

const fileInput = document.getElementById("house-file");
fileInput.closest(".js-only").hidden = false;
fileInput.addEventListener("change", async () => {
  const file = fileInput.files[0];
  if (!file) return;
  const house = document.getElementById("house");
  if (file.size > Number(house.maxLength)) {
    live.textContent = texts.fileTooBig;
    return;
  }
  house.value = await file.text();
  ask(0);
});

shareButton.hidden = false;
shareButton.addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(shareLink.href);
    shareStatus.textContent = texts.copied;
  } catch {
    shareStatus.textContent = texts.copyFailed;
  }
});

// ---------------------------------------------------------------- start
tools.hidden = false;
writeNotation();
draw();
// one tab stop each for the palette and the hand's tiles; arrow keys move between tiles
roving(document.getElementById("palette"), { rows: ".palette-row", items: "button[data-tile]", key: (b) => b.dataset.tile });
roving(groupsBox, { rows: ".tiles", items: "button.tile", key: (b) => `${b.dataset.g}:${b.dataset.i}` });
show(document.getElementById("calc-result"));
