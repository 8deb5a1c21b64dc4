// The big screen of a tournament: asks every few seconds how often the tournament was
// written (GET /t/PUBLIC/version, a number) and loads the page again when that changed,
// so a new round's seating and new results show without anyone touching the screen.
(() => {
  "use strict";
  const body = document.body;
  const url = body.dataset.versionUrl;
  if (!url) return;
  const seen = body.dataset.version;
  const every = Math.max(5, Number(body.dataset.every) || 10) * 1000;
  const check = async () => {
    try {
      const answer = await fetch(url, { cache: "no-store" });
      if (answer.ok && (await answer.text()).trim() !== seen) {
        window.location.reload();
        return;
      }
    } catch (error) {
      // the server is away for a moment: ask again later
    }
    window.setTimeout(check, every);
  };
  window.setTimeout(check, every);
})();
