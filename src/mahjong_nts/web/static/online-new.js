// The new-table form and the join page: only the seat rows of the chosen number of
// players are shown (the server reads only those), and the copy buttons work.
import { bindCopy } from "./copy-links.js";

const form = document.getElementById("new-table");
if (form) {
  const show = () => {
    const players = Number(form.elements.players.value || 4);
    for (const row of form.querySelectorAll(".seat-row")) {
      row.hidden = Number(row.dataset.seat) >= players;
    }
  };
  form.addEventListener("change", show);
  show();
}
bindCopy(document.body);
