// The service worker (docs/web.md, "Offline"): it keeps the pages' shell (the pages, their scripts, the
// style, the icons) so that the score sheet and the banki referee open with no network. The server fills
// in VERSION (a digest of everything in the shell) and SHELL when it serves /sw.js: a new koloda is a new
// worker, whose cache replaces the old one. The API is never cached here: the pages keep what they need
// in IndexedDB themselves (offline.js).
"use strict";

const VERSION = "__KOLODA_VERSION__";
const SHELL = __KOLODA_SHELL__;
const CACHE = `koloda-${VERSION}`;
const PAGE_SECONDS = 4;  // a page asked of a weak network: the kept one after this long

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key.startsWith("koloda-") && key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

// The kept copy a page's address is served from: every sheet is the one sheet page, and so on.
function shellOf(url) {
  const first = url.pathname.split("/")[1];
  if (first === "sheet") return "/sheet";
  if (first === "banki") return "/banki";
  if (first === "table") return "/table/0";
  // issue 31: each rules page in each language (a table's marks come from the API, not the page)
  if (first === "rules") return `${url.pathname}?lang=${url.searchParams.get("lang") === "en" ? "en" : "ru"}`;
  if (first === "learn") return "/learn";
  return "/";
}

async function page(request) {
  const cache = await caches.open(CACHE);
  const key = shellOf(new URL(request.url));
  const timeout = new Promise((resolve) => { setTimeout(resolve, PAGE_SECONDS * 1000, null); });
  try {
    const response = await Promise.race([fetch(request), timeout]);
    if (response && response.ok) {
      cache.put(key, response.clone());
      return response;
    }
    if (response) return response;  // the server's own answer (a 404 page): as it is
  } catch (error) {
    // no network: the kept page
  }
  return (await cache.match(key)) || Response.error();
}

async function asset(request) {
  const kept = await caches.match(request, { ignoreSearch: true });
  return kept || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  if (event.request.mode === "navigate") event.respondWith(page(event.request));
  else if (SHELL.includes(url.pathname)) event.respondWith(asset(event.request));
});
