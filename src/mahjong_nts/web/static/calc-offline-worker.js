// The offline calculator's Web Worker (served as /offline/worker.js, a module worker).
// It runs the server's own Python in Pyodide: mahjong_nts.calc.result.render_fragment,
// the function behind GET /calc/result, from /offline/bundle.zip. No rule of the game
// here. Messages: {id, query, lang} in; {id, status, html} or {id, error} out; the
// first message out is {ready: true, ms} (or {id: 0, error}) once Python is loaded.
import { loadPyodide } from "/static/vendor/pyodide/pyodide.mjs";

const started = performance.now();

async function start() {
  const pyodide = await loadPyodide({ indexURL: "/static/vendor/pyodide/", fullStdLib: false });
  const answer = await fetch("/offline/bundle.zip");
  if (!answer.ok) throw new Error(`the offline bundle did not load (${answer.status})`);
  pyodide.unpackArchive(await answer.arrayBuffer(), "zip", { extractDir: "/offline" });
  pyodide.runPython(
    "import sys\nsys.path.insert(0, '/offline')\nfrom mahjong_nts.calc.result import render_fragment",
  );
  return pyodide.globals.get("render_fragment");
}

const ready = start();
ready.then(
  () => postMessage({ ready: true, ms: Math.round(performance.now() - started) }),
  (error) => postMessage({ id: 0, error: String(error) }),
);

self.onmessage = async (event) => {
  const { id, query, lang } = event.data;
  try {
    const render = await ready;
    const result = render(query, lang);
    const [status, html] = result.toJs();
    result.destroy();
    postMessage({ id, status, html });
  } catch (error) {
    postMessage({ id, error: String(error) });
  }
};
