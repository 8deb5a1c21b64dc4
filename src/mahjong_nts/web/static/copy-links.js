// Copy buttons beside a link: <button data-copy="ID" data-copied="Copied"> copies the
// value of input #ID and says so for a moment.
export function bindCopy(root) {
  root.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-copy]");
    if (!button) return;
    const input = document.getElementById(button.dataset.copy);
    if (!input) return;
    const was = button.textContent;
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      document.execCommand("copy"); // an older browser, or a page not served securely
    }
    button.textContent = button.dataset.copied || was;
    setTimeout(() => {
      button.textContent = was;
    }, 1500);
  });
}
