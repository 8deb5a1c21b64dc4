// Arrow keys between tile buttons, with one tab stop for the whole set ("roving tabindex",
// WAI-ARIA Authoring Practices, "Keyboard Navigation Inside Components").
//
//   roving(box, { rows: ".palette-row", items: "button[data-tile]" })
//
// The buttons (``items``) inside ``box`` are grouped in ``rows`` (a palette row, a meld;
// without ``rows`` the box is one row). Exactly one usable button has tabindex 0, the
// others -1, so Tab enters the set once and leaves it at once. Left/Right move within a
// row (a row that wraps on a phone goes on at its next line), Up/Down to the line of
// buttons above or below as drawn (a wrapped line, or the next row) and there to the
// button nearest the same column, Home/End to the first/last button of the row,
// Ctrl+Home/Ctrl+End of the whole set. Enter and Space are left to the button (its
// click). Hidden or disabled buttons are skipped. The box may redraw its buttons at any
// time: the tab stop is found again (the same ``key``, else the same place, else the
// first button).

const usable = (el) => !el.disabled && !el.hidden && el.closest("[hidden]") === null;

export function roving(box, { rows = null, items, key = (el) => el.dataset.key || "" }) {
  let stopKey = null; // key of the button holding the tab stop
  let stopPlace = [0, 0]; // its row and column, for a redraw that changed the keys

  const grid = () => {
    const groups = rows ? [...box.querySelectorAll(rows)] : [box];
    return groups
      .map((g) => [...g.querySelectorAll(items)].filter(usable))
      .filter((row) => row.length);
  };

  const placeOf = (cells, el) => {
    for (let r = 0; r < cells.length; r += 1) {
      const c = cells[r].indexOf(el);
      if (c >= 0) return [r, c];
    }
    return null;
  };

  function settle() {
    const cells = grid();
    const all = cells.flat();
    let stop = null;
    if (stopKey !== null) stop = all.find((el) => key(el) === stopKey) || null;
    if (!stop && cells.length) {
      const row = cells[Math.min(stopPlace[0], cells.length - 1)];
      stop = row[Math.min(stopPlace[1], row.length - 1)];
    }
    for (const el of box.querySelectorAll(items)) {
      const want = el === stop ? "0" : "-1";
      if (el.getAttribute("tabindex") !== want) el.setAttribute("tabindex", want);
    }
  }

  function take(el) {
    const place = placeOf(grid(), el);
    if (!place) return;
    stopKey = key(el);
    stopPlace = place;
    settle();
  }

  const centre = (el) => {
    const r = el.getBoundingClientRect();
    return r.left + r.width / 2;
  };

  // the button nearest the same column on the nearest line below (or above) ``el``
  function vertical(el, all, down) {
    const r = el.getBoundingClientRect();
    const box = (b) => b.getBoundingClientRect();
    const past = all.filter((b) => (down ? box(b).top >= r.bottom - 1 : box(b).bottom <= r.top + 1));
    if (!past.length) return el;
    const edge = down ? Math.min(...past.map((b) => box(b).top)) : Math.max(...past.map((b) => box(b).bottom));
    const line = past.filter((b) => (down ? box(b).top < edge + box(b).height / 2 : box(b).bottom > edge - box(b).height / 2));
    const x = centre(el);
    return line.reduce((best, b) => (Math.abs(centre(b) - x) < Math.abs(centre(best) - x) ? b : best));
  }

  function target(event, el) {
    const cells = grid();
    const place = placeOf(cells, el);
    if (!place) return null;
    const [r, c] = place;
    const row = cells[r];
    switch (event.key) {
      case "ArrowLeft":
        return row[c - 1] || el;
      case "ArrowRight":
        return row[c + 1] || el;
      case "ArrowUp":
        return vertical(el, cells.flat(), false);
      case "ArrowDown":
        return vertical(el, cells.flat(), true);
      case "Home":
        return event.ctrlKey ? cells[0][0] : row[0];
      case "End":
        return event.ctrlKey ? cells.at(-1).at(-1) : row.at(-1);
      default:
        return null;
    }
  }

  box.addEventListener("keydown", (event) => {
    if (event.altKey || event.metaKey || event.shiftKey) return;
    const el = event.target.closest(items);
    if (!el || !box.contains(el)) return;
    const to = target(event, el);
    if (!to) return;
    event.preventDefault(); // an arrow at the edge must not scroll the page either
    if (to !== el) {
      take(to);
      to.focus();
    }
  });
  box.addEventListener("focusin", (event) => {
    const el = event.target.closest(items);
    if (el && box.contains(el)) take(el);
  });
  new MutationObserver(settle).observe(box, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ["hidden", "disabled"],
  });
  settle();
  return { settle };
}
