// The replay viewer: the arrow keys step through the hand (the links do the rest).
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea")) return;
  const id = event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : null;
  const link = id ? document.getElementById(id) : null;
  if (link) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});
