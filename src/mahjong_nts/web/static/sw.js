// The service worker (served at /sw.js, scope "/"): the calculator without a network.
// web/offline.py writes CONFIG: the caches' names (versioned) and the URLs they hold.
// It answers only GET requests for those URLs; everything else (the API, the sheets,
// play, any POST) goes to the network untouched and is never stored.
//   shell (the calculator page, its CSS/JS, tile pictures, manifest, icon):
//     network first, the cached copy when the network fails;
//   Pyodide, the worker and the Python bundle: from the cache when there
//     (stored only when the page asks: "Make available offline").
const CONFIG = {}; // filled in by web/offline.py

const shell = new Set(CONFIG.shell);
const stored = new Set([...CONFIG.offline, ...CONFIG.pyodide]);

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  const keep = new Set([CONFIG.shellCache, CONFIG.pyodideCache]);
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CONFIG.prefix) && !keep.has(name)) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

async function networkFirst(request, key) {
  try {
    const answer = await fetch(request);
    if (answer.ok && answer.type === "basic") {
      const cache = await caches.open(CONFIG.shellCache);
      await cache.put(key, answer.clone());
    }
    return answer;
  } catch (error) {
    const cached = await caches.match(key);
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request, path) {
  const cached = await caches.match(path);
  return cached || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === "/" && request.mode === "navigate") {
    // a share link (/?hand=...) opens the cached calculator too; only "/" is stored
    const key = url.search ? null : "/";
    event.respondWith(
      key
        ? networkFirst(request, key)
        : fetch(request).catch(async (error) => (await caches.match("/")) || Promise.reject(error)),
    );
  } else if (url.search === "" && shell.has(url.pathname) && url.pathname !== "/") {
    event.respondWith(networkFirst(request, url.pathname));
  } else if (url.search === "" && stored.has(url.pathname)) {
    event.respondWith(cacheFirst(request, url.pathname));
  }
});
