// The playground's service worker: once a release build has been opened, it opens again with the
// network off (a teacher opens it before class; the room's network does not matter).
//
// The release build (src/bin/prerender.rs) writes this file next to index.html with the two lines
// below filled in: every file of the build (the wasm, its glue, the stylesheet, the lessons and
// their scenarios) and a hash of them all. A new release so has a new worker: the browser installs
// it on the next visit, it caches the new files, and it deletes the old release's cache.
const VERSION = 'dev';
const FILES = [];

const PREFIX = 'rebalance-playground-';
const CACHE = PREFIX + VERSION;
// How long a page load waits for the network before it is served from the cache (a network that
// neither answers nor fails, such as a crowded school connection).
const NETWORK_WAIT_MS = 4000;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // `reload`: the files as the server has them now, not as the browser's HTTP cache does.
      .then((cache) => cache.addAll(['./', ...FILES].map((f) => new Request(f, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** The page itself: from the network when it answers (a new release shows at once), else cached. */
function page(request) {
  const cached = () => caches.open(CACHE).then((c) => c.match('./'));
  const network = fetch(request);
  const late = new Promise((ok) => setTimeout(ok, NETWORK_WAIT_MS)).then(cached);
  return Promise.race([network, late.then((r) => r ?? network)]).catch(() =>
    cached().then((r) => r ?? network),
  );
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(page(request));
    return;
  }
  // Everything else has a hashed name or belongs to this release: the cache first.
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(request))
      .then((hit) => hit ?? fetch(request)),
  );
});
