// The table's keys and timers, shared by the game against the bots (play.js) and the
// online tables (online.js).  No rule of the game here: the server draws the table, and
// every element that answers a key carries it (data-key: a tile position, c p k m x for
// the claims, h hint, n next hand).

// Each key clicks the enabled element of the table that carries it; two elements with
// the same key (two chows) take the focus in turn, and Enter chooses.
export function bindKeys(root) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const key = event.key.toLowerCase();
    const matches = [...root.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)].filter(
      (el) => !el.disabled,
    );
    if (matches.length === 0) return;
    event.preventDefault();
    if (matches.length === 1) {
      matches[0].click();
    } else {
      const at = matches.indexOf(document.activeElement);
      matches[(at + 1) % matches.length].focus();
    }
  });
}

// Timers drawn by the server: data-deadline and data-now in milliseconds of the server's
// clock.  Each counts down deadline - now from the moment it arrived, so the clocks of
// the server and the browser need not agree.
export function armTimers(root, arrived = Date.now()) {
  for (const el of root.querySelectorAll(".timer[data-deadline]")) {
    const left = Number(el.dataset.deadline) - Number(el.dataset.now);
    el.dataset.ends = String(arrived + left);
    el.dataset.total = String(Math.ceil(left / 1000));
  }
  tickTimers(root);
}

export function tickTimers(root) {
  const now = Date.now();
  for (const el of root.querySelectorAll(".timer[data-ends]")) {
    const secs = Math.max(0, Math.ceil((Number(el.dataset.ends) - now) / 1000));
    const shown = el.querySelector(".secs");
    if (shown && shown.textContent !== String(secs)) shown.textContent = String(secs);
    // the last seconds of a long timer stand out (a short one, the discard's, does not)
    el.classList.toggle("low", secs <= 5 && Number(el.dataset.total) > 10);
  }
}
