// The settle page made live: the server settles (GET /settle with the form's
// fields), this script only sends the form and shows the answer. Without it the
// form is a plain GET.
const form = document.getElementById("settle-form");
const result = document.getElementById("settle-result");
let timer = 0;
let asked = 0;

function query() {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form)) {
    if (value !== "") params.append(key, String(value));
  }
  return params.toString();
}

function showErrors(doc) {
  for (const old of form.querySelectorAll(".field-error")) old.remove();
  for (const field of form.querySelectorAll("[aria-invalid]")) {
    field.removeAttribute("aria-invalid");
    field.removeAttribute("aria-describedby");
  }
  for (const error of doc.querySelectorAll("#settle-form .field-error")) {
    const key = error.id.replace(/^err-/, "");
    const field = form.querySelector(`#${CSS.escape(key)}`) || form.querySelector(`[name="${CSS.escape(key)}"]`);
    const copy = error.cloneNode(true);
    if (field) {
      field.setAttribute("aria-invalid", "true");
      field.setAttribute("aria-describedby", error.id);
      (field.closest("td, .row, fieldset") || form).append(copy);
    } else {
      form.prepend(copy);
    }
  }
}

async function update() {
  const mine = ++asked;
  const q = query();
  const answer = await fetch(`/settle?${q}`, { headers: { Accept: "text/html", "X-Settle-Live": "1" } });
  if (mine !== asked) return;
  const doc = new DOMParser().parseFromString(await answer.text(), "text/html");
  const fresh = doc.getElementById("settle-result");
  if (!fresh) return;
  showErrors(doc);
  result.innerHTML = fresh.innerHTML;
  history.replaceState(null, "", `/settle?${q}`);
}

form.addEventListener("input", (event) => {
  if (event.target.matches("[data-reload]")) return;
  if (!form.querySelector('input[name="winner"]:checked')) return;
  clearTimeout(timer);
  timer = setTimeout(update, 250);
});
form.addEventListener("change", (event) => {
  if (event.target.matches("[data-reload]")) {
    const spec = event.target.value;
    location.assign(`/settle?ruleset=${encodeURIComponent(spec)}`);
  }
});
form.addEventListener("submit", (event) => {
  event.preventDefault();
  clearTimeout(timer);
  update();
});
