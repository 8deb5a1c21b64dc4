// The calculator offline, the page's side (see web/offline.py and docs/web.md, "Offline").
// Registers the service worker; "Make available offline" stores Pyodide, the worker and
// the Python bundle in the browser's cache (it starts by itself when the app runs
// installed); offlineResult(query) asks the worker, which runs the server's own
// render_fragment, for the result the server would have answered. No rule here.
const section = document.getElementById("offline");
const supported =
  section && "serviceWorker" in navigator && "caches" in window && typeof Worker === "function";
const config = supported ? JSON.parse(section.dataset.config) : null;
const texts = supported ? document.getElementById("offline-texts").dataset : {};
const status = supported ? document.getElementById("offline-status") : null;
const button = supported ? document.getElementById("offline-get") : null;
const progress = supported ? document.getElementById("offline-progress") : null;

let state = "none"; // "none", "getting", "ready", "failed"
let worker = null;
let workerReady = null;
let nextId = 1;
const waiting = new Map();

function say(text, kind) {
  status.textContent = text;
  section.dataset.state = kind || state;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => values[key]);
}

async function missing() {
  const py = await caches.open(config.pyodideCache);
  const shell = await caches.open(config.shellCache);
  const out = [];
  for (const url of config.pyodide) if (!(await py.match(url))) out.push([py, url]);
  for (const url of [...config.offline, ...config.shell]) if (!(await shell.match(url))) out.push([shell, url]);
  return out;
}

async function store(cache, url, counted) {
  const answer = await fetch(url, { cache: "no-cache" });
  if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
  const reader = answer.body.getReader();
  const parts = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    counted(value.length);
  }
  const type = answer.headers.get("Content-Type") || "application/octet-stream";
  await cache.put(url, new Response(new Blob(parts, { type }), { headers: answer.headers }));
}

function startWorker() {
  if (workerReady) return workerReady;
  worker = new Worker("/offline/worker.js", { type: "module" });
  workerReady = new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      const data = event.data;
      if (data.ready) {
        section.dataset.startMs = String(data.ms);
        resolve();
      } else if (data.id === 0) {
        reject(new Error(data.error));
      } else if (waiting.has(data.id)) {
        waiting.get(data.id)(data);
        waiting.delete(data.id);
      }
    };
    worker.onerror = (event) => reject(new Error(event.message || "worker error"));
  });
  workerReady.catch(() => {
    worker.terminate();
    worker = null;
    workerReady = null;
  });
  return workerReady;
}

function ask(query, lang) {
  return new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    worker.postMessage({ id, query, lang });
  });
}

async function makeAvailable() {
  if (state === "getting" || state === "ready") return; // (a click while it starts by itself)
  state = "getting";
  button.hidden = true;
  progress.hidden = false;
  progress.value = 0;
  const begun = performance.now();
  let received = 0;
  const counted = (n) => {
    received += n;
    const percent = Math.min(99, Math.floor((100 * received) / config.bytes));
    progress.value = percent;
    say(fill(texts.getting, { percent }));
  };
  try {
    say(fill(texts.getting, { percent: 0 }));
    for (const [cache, url] of await missing()) await store(cache, url, counted);
    say(texts.starting);
    await startWorker();
    const check = await ask("", document.documentElement.lang);
    if (check.error || !check.html.includes('id="calc-result"')) throw new Error(check.error || "no result");
    state = "ready";
    section.dataset.readyMs = String(Math.round(performance.now() - begun));
    progress.hidden = true;
    say(texts.ready);
  } catch (error) {
    state = "failed";
    progress.hidden = true;
    button.hidden = false;
    say(fill(texts.failed, { reason: error.message }));
  }
}

// The result the server would have given for `query`, from the worker; null when offline
// scoring is not ready on this device (then the page says the server did not answer).
export async function offlineResult(query) {
  if (state !== "ready") return null;
  if (!workerReady) say(texts.starting, "starting");
  try {
    await startWorker();
    const answer = await ask(query, document.documentElement.lang);
    if (answer.error) throw new Error(answer.error);
    say(texts.used, "used");
    return answer.html;
  } catch (error) {
    say(fill(texts.failed, { reason: error.message }), "failed");
    return null;
  }
}

async function begin() {
  section.hidden = false;
  // The button answers from the moment it shows: a click before the service worker is
  // registered waits for it (and does nothing when the registration failed).
  const registered = navigator.serviceWorker.register("/sw.js");
  button.addEventListener("click", () => {
    registered.then(makeAvailable, () => {});
  });
  try {
    await registered;
  } catch (error) {
    button.hidden = true;
    say(fill(texts.failed, { reason: error.message }), "failed");
    return;
  }
  const lacking = await missing();
  if (!lacking.length) {
    state = "ready";
    say(navigator.onLine ? texts.ready : texts.readyOffline);
    button.hidden = true;
    return;
  }
  const pyodideKept = lacking.every(([, url]) => !config.pyodide.includes(url));
  if (pyodideKept || matchMedia("(display-mode: standalone)").matches) {
    // made available before (only the app's own files are new), or running installed
    makeAvailable();
  } else {
    say(texts.idle, "none");
  }
}

if (supported) {
  begin();
  window.addEventListener("offline", () => {
    if (state === "ready") startWorker().catch(() => {});
  });
}
