// "Add this hand to the sheet": from a scored hand in the calculator to the form of the
// next hand of a score sheet this browser opened, in one tap. The link is the sheet's
// page with the calculator's own query (hand, seat, round, how it was won, rule set):
// the sheet puts the hand in the form of the player who has that seat wind, and says so
// when it scores the hand in another round or under another rule set.
import { knownSheets } from "./sheets-known.js";

const box = document.getElementById("to-sheet");
const resultBox = document.getElementById("result-box");
if (box && resultBox) {
  const choose = box.querySelector(".to-sheet-choose");
  const select = document.getElementById("to-sheet-choice");
  const add = box.querySelector(".to-sheet-add");
  const link = document.getElementById("to-sheet-link");
  const which = document.getElementById("to-sheet-which");
  const none = box.querySelector(".to-sheet-none");
  const sheets = knownSheets();
  const label = (s) => `${s.names} · ${s.ruleset}`;
  for (const s of sheets) select.add(new Option(label(s), s.token));

  const update = () => {
    const result = document.getElementById("calc-result");
    const scored = result && result.querySelector("[data-score]");
    box.hidden = !scored;
    if (!scored) return;
    none.hidden = sheets.length > 0;
    add.hidden = sheets.length === 0;
    choose.hidden = sheets.length < 2;
    if (!sheets.length) return;
    const sheet = sheets.find((s) => s.token === select.value) || sheets[0];
    const share = result.dataset.share || "";
    const query = share.includes("?") ? share.slice(share.indexOf("?")) : "";
    link.href = `/sheet/${sheet.token}${query}`;
    which.textContent = label(sheet);
    which.hidden = sheets.length > 1; // the choice above says it (and still describes the link)
  };

  select.addEventListener("change", update);
  new MutationObserver(update).observe(resultBox, { childList: true, subtree: true });
  update();
}
