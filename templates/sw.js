// Scorekeeper service worker {{ version }}: static files from the cache, the last
// scoreboard of each match and an offline page when the network is gone, and an
// outbox for hands saved while offline (sent once the server answers, exactly once
// thanks to each form's one-time token). The server stays the record.
"use strict";
const CACHE = "scorekeeper-{{ version }}";
const PAGES = "scorekeeper-pages";
const PRECACHE = {{ urls|tojson }};
const OFFLINE = "{{ url_for('shell.offline') }}";
const SCOREBOARD = /^\/matches\/(\d+)$/;
const RECORD = /^\/matches\/(\d+)\/hands\/new$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE && key !== PAGES).map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

// The outbox: one IndexedDB store of posted record-hand forms, keyed by their token.
function outbox(mode, work) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("scorekeeper", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("outbox", { keyPath: "token" });
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction("outbox", mode);
      const result = work(tx.objectStore("outbox"));
      tx.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
      tx.onerror = () => reject(tx.error);
    };
  });
}
const entries = () => outbox("readonly", (store) => store.getAll()).then((all) => all.sort((a, b) => a.at - b.at));
const keep = (entry) => outbox("readwrite", (store) => store.put(entry));
const drop = (token) => outbox("readwrite", (store) => store.delete(token));

async function sendOrKeep(request, match) {
  const body = await request.clone().text();
  try {
    return await fetch(request);
  } catch (offline) {
    const form = new URLSearchParams(body);
    await keep({ token: form.get("token"), url: request.url, body, match, number: form.get("expected_number"), at: Date.now(), state: "waiting" });
    if (self.registration.sync) self.registration.sync.register("outbox").catch(() => {});
    return Response.redirect(new URL("/matches/" + match, request.url).href, 303);
  }
}

let flushing = null;
function flush() {
  flushing = flushing || (async () => {
    let sent = 0;
    for (const entry of await entries()) {
      if (entry.state !== "waiting") continue;
      let response;
      try {
        response = await fetch(entry.url, {
          method: "POST",
          body: entry.body,
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          credentials: "same-origin",
          redirect: "manual",
        });
      } catch (offline) {
        break;
      }
      if (response.type === "opaqueredirect") {
        await drop(entry.token);
        sent += 1;
      } else {  // not saved (asked to check it, or refused): the scorer opens it again
        await keep({ ...entry, state: "refused", status: response.status });
      }
    }
    if (sent) {  // open scoreboards show the hands now on the server
      for (const client of await self.clients.matchAll()) client.postMessage({ type: "sent", sent });
    }
    return sent;
  })().finally(() => (flushing = null));
  return flushing;
}

self.addEventListener("sync", (event) => { if (event.tag === "outbox") event.waitUntil(flush()); });

self.addEventListener("message", (event) => {
  const reply = (data) => event.ports[0] && event.ports[0].postMessage(data);
  const message = event.data || {};
  if (message.type === "flush") event.waitUntil(flush().then((sent) => reply({ sent })));
  if (message.type === "outbox") {
    event.waitUntil(entries().then((all) => {
      const mine = all.filter((e) => String(e.match) === String(message.match));
      reply({
        waiting: mine.filter((e) => e.state === "waiting").map((e) => e.number),
        refused: mine.filter((e) => e.state === "refused").map((e) => ({ number: e.number, token: e.token, status: e.status })),
      });
    }));
  }
  if (message.type === "take") {
    event.waitUntil(entries().then((all) => {
      const entry = all.find((e) => e.token === message.token) || null;
      return (entry ? drop(entry.token) : Promise.resolve()).then(() => reply(entry));
    }));
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const record = url.pathname.match(RECORD);
  if (request.method === "POST" && request.mode === "navigate" && record) {
    event.respondWith(sendOrKeep(request, record[1]));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    const scoreboard = SCOREBOARD.test(url.pathname);
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (scoreboard && response.ok) {
            const copy = response.clone();
            caches.open(PAGES).then((cache) => cache.put(url.pathname, copy));
          }
          if (navigator.onLine !== false) flush();
          return response;
        })
        .catch(() =>
          (scoreboard ? caches.match(url.pathname, { cacheName: PAGES }) : Promise.resolve(undefined))
            .then((hit) => hit || caches.match(OFFLINE))
        )
    );
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(
      caches.match(request).then((hit) => hit || fetch(request).then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      }))
    );
  }
});
