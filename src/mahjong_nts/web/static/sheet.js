// The score sheet's pages, made live. Everything works without this script.
//  - The hand form shows only the fields of the chosen way of entering a hand.
//  - The share link can be copied.
//  - The sheet is remembered in this browser (localStorage), so the calculator can
//    offer "add this hand to the sheet" (static/calc-sheet.js).
//  - What is typed in the form of the next hand is kept for this tab (sessionStorage),
//    so a trip to the calculator for one player's hand loses nobody else's.
//  - The sheet follows what other phones at the table add or correct: every few
//    seconds, while the page is in view, it asks GET /sheet/TOKEN/live with the ETag
//    it shows; the server answers 304 (nothing changed, no body) or the new parts.

import { rememberSheet } from "./sheets-known.js";

const MAX_DELAY = 60_000;

// ------------------------------------------------------------------ the form's kind

const showKind = (form) => {
  const kind = form.querySelector("input[name=kind]:checked");
  form.dataset.kind = kind ? kind.value : "scores";
};
for (const form of document.querySelectorAll(".hand-form")) showKind(form);
document.addEventListener("change", (event) => {
  const form = event.target.closest(".hand-form");
  if (form && event.target.name === "kind") showKind(form);
});

// ------------------------------------------------------------------ the share link

const link = document.getElementById("share-link");
const copy = document.getElementById("copy-link");
if (link && copy && navigator.clipboard) {
  copy.hidden = false;
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link.value);
      copy.textContent = copy.dataset.done || copy.textContent;
    } catch {
      link.select();
    }
  });
}

// ------------------------------------------------------------------ the sheet page

const config = document.getElementById("sheet-config");
if (config) {
  const token = config.dataset.token;
  rememberSheet(token, config.dataset.names, config.dataset.ruleset);
  const draftKey = `mahjong-nts:draft:${token}`;
  const addSection = () => document.querySelector('[data-live="add"]');
  const addForm = () => addSection()?.querySelector("form");
  const nextNumber = () => addSection()?.querySelector('[data-live="add-title"]')?.textContent;
  let dirty = Boolean(config.dataset.prefilled);

  // the form of the next hand: kept while it is being filled in
  const form = addForm();
  if (form) {
    if (new URLSearchParams(location.search).has("added")) forget(draftKey);
    if (restore(form, draftKey, nextNumber())) dirty = true;
    save(form, draftKey, nextNumber()); // with a hand the calculator sent along
  }
  document.addEventListener("input", (event) => {
    const current = addForm();
    if (current && current.contains(event.target)) {
      dirty = true;
      save(current, draftKey, nextNumber());
    }
  });
  document.addEventListener("submit", (event) => {
    if (event.target === addForm()) forget(draftKey);
  });

  // live: the parts of the page another phone's hand changes
  const base = Math.max(1, Number(config.dataset.liveSeconds) || 3) * 1000;
  let etag = config.dataset.etag;
  let delay = base;
  let timer = null;
  const status = document.getElementById("sheet-status");

  const swap = (html) => {
    const fresh = new DOMParser().parseFromString(html, "text/html");
    const now = document.querySelector('[data-live="sheet"]');
    const freshNow = fresh.querySelector('[data-live="sheet"]');
    if (now && freshNow) now.replaceWith(document.adoptNode(freshNow));
    const add = addSection();
    const freshAdd = fresh.querySelector('[data-live="add"]');
    if (add && freshAdd) {
      const busy = dirty || add.contains(document.activeElement);
      if (!busy) {
        add.replaceWith(document.adoptNode(freshAdd));
        for (const f of document.querySelectorAll(".hand-form")) showKind(f);
      } else {
        // keep what is typed; the heading, the round and the seat winds follow
        for (const part of freshAdd.querySelectorAll("[data-live]")) {
          const old = add.querySelector(`[data-live="${part.dataset.live}"]`);
          if (old) old.replaceWith(document.adoptNode(part));
        }
      }
    }
    if (status) status.textContent = config.dataset.updated;
  };

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(poll, delay);
  };

  async function poll() {
    if (document.visibilityState !== "visible") return; // asked again when in view
    const kind = addForm()?.querySelector("input[name=kind]:checked")?.value || "scores";
    try {
      const answer = await fetch(`${config.dataset.liveUrl}?kind=${encodeURIComponent(kind)}`, {
        headers: { "If-None-Match": etag },
        cache: "no-store",
      });
      if (answer.status === 304) {
        delay = base;
      } else if (answer.ok) {
        const text = await answer.text();
        etag = answer.headers.get("ETag") || etag;
        swap(text);
        delay = base;
      } else if (answer.status === 404) {
        return; // the sheet is gone: stop asking
      } else {
        delay = Math.min(delay * 2, MAX_DELAY); // the server is busy or away
      }
    } catch {
      delay = Math.min(delay * 2, MAX_DELAY);
    }
    schedule();
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      delay = base;
      poll();
    } else {
      clearTimeout(timer);
    }
  });
  schedule();
}

// ------------------------------------------------------------------ helpers

function save(form, key, next) {
  const values = {};
  for (const [name, value] of new FormData(form)) {
    if (name !== "version") values[name] = String(value);
  }
  try {
    sessionStorage.setItem(key, JSON.stringify({ next, values }));
  } catch {
    // not kept: no harm
  }
}

function forget(key) {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // nothing kept
  }
}

// Put a kept draft back into the fields the page left empty (a hand the calculator
// sent along wins); only a draft of this same next hand. Whether anything was put back.
function restore(form, key, next) {
  let draft = null;
  try {
    draft = JSON.parse(sessionStorage.getItem(key) || "null");
  } catch {
    return false;
  }
  if (!draft || draft.next !== next || typeof draft.values !== "object") return false;
  let changed = false;
  for (const [name, value] of Object.entries(draft.values)) {
    const field = form.elements.namedItem(name);
    if (!field || typeof value !== "string" || value === "") continue;
    if (field instanceof RadioNodeList) {
      // the way of entering the hand: the draft's, unless the page chose hands
      const checked = [...field].find((r) => r.checked);
      const wanted = [...field].find((r) => r.value === value);
      if (wanted && wanted !== checked && (!checked || checked.value === "scores")) {
        wanted.checked = true;
        changed = true;
      }
    } else if (field.type === "checkbox") {
      if (!field.checked) {
        field.checked = true;
        changed = true;
      }
    } else if (field.tagName === "SELECT") {
      // a choice the page did not make (none marked, or "nobody")
      const chosen = field.querySelector("option[selected]");
      if ((!chosen || !field.value) && field.value !== value) {
        field.value = value;
        changed = true;
      }
    } else if (!field.value) {
      field.value = value;
      changed = true;
    }
  }
  showKind(form);
  return changed;
}
