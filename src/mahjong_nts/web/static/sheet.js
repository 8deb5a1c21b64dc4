// The score sheet's forms, made live: only the fields of the chosen way of entering
// a hand are shown, and the share link can be copied. Everything works without it.
const form = document.querySelector(".hand-form");
if (form) {
  const show = () => {
    const kind = form.querySelector("input[name=kind]:checked");
    form.dataset.kind = kind ? kind.value : "scores";
  };
  form.addEventListener("change", (event) => {
    if (event.target.name === "kind") show();
  });
  show();
}

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
