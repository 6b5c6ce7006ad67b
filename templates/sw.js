// Scorekeeper service worker {{ version }}: static files from the cache, the last
// scoreboard of each match and an offline page when the network is gone, and an
// outbox for hands saved while offline (sent once the server answers, exactly once
// thanks to each form's one-time token). The server stays the record.
"use strict";
const CACHE = "scorekeeper-{{ version }}-{{ locale }}";
const PAGES = "scorekeeper-pages-{{ locale }}";
const PRECACHE = {{ urls|tojson }};
const OFFLINE = "{{ url_for('shell.offline') }}";
const SCOREBOARD = /^\/matches\/(\d+)$/;
// What the outbox says, in the language this worker was made in (a phone that changes
// language gets a new worker: this file differs).
const SAID = {{ said|tojson }};
const NUMBER = new Intl.NumberFormat({{ lang|tojson }});
const say = (text, values) => text.replace(/%\((\w+)\)s/g, (_, name) => values[name]);
const hand = (e) => ({ number: NUMBER.format(e.number), match: e.match });
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

// The outbox: one IndexedDB store of posted record-hand forms, keyed by their token. An
// entry is "waiting" to be sent, or "asked": sent, and answered with the form again (a
// question to confirm, a refusal: `page` keeps that answer) or with nothing recorded.
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
const drop = (token) => (token ? outbox("readwrite", (store) => store.delete(token)) : Promise.resolve());

// Every open page of the app hears what became of the outbox.
const tell = async (news) => {
  for (const client of await self.clients.matchAll()) client.postMessage({ type: "outbox", ...news });
};

async function sendOrKeep(request, match) {
  const body = await request.clone().text();
  const form = new URLSearchParams(body);
  try {
    const response = await fetch(request);
    await drop(form.get("token"));  // the scorer sees the server's own answer to this form
    return response;
  } catch (offline) {  // perhaps after the server got it: the token keeps a replay single
    await keep({ token: form.get("token"), url: request.url, body, match, number: form.get("expected_number"), at: Date.now(), state: "waiting" });
    if (self.registration.sync) self.registration.sync.register("outbox").catch(() => {});
    tell({ recorded: [] });
    return Response.redirect(new URL("/matches/" + match, request.url).href, 303);
  }
}

// The hand's number once the server holds the form's token, 0 if it does not, undefined
// when it cannot say (no connection, signed out).
async function recorded(entry) {
  try {
    const url = new URL(`/matches/${entry.match}/hands/sent/${encodeURIComponent(entry.token)}`, entry.url);
    const answer = await fetch(url, { credentials: "same-origin", redirect: "manual", cache: "no-store" });
    return answer.ok ? (await answer.json()).number || 0 : undefined;
  } catch (offline) {
    return undefined;
  }
}

let flushing = null;
function flush() {
  flushing = flushing || (async () => {
    const news = { recorded: [], asked: 0 };
    const held = new Set();  // a match whose earlier hand is not saved keeps its later ones
    for (const entry of await entries()) {
      if (entry.state !== "waiting" || held.has(entry.match)) {
        held.add(entry.match);
        continue;
      }
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
      if (response.status >= 500) break;  // the server cannot save right now: later
      const number = await recorded(entry);
      if (number === undefined) break;
      if (number) {
        await drop(entry.token);
        news.recorded.push({ match: entry.match, number, text: say(SAID.recorded, hand({ ...entry, number })) });
      } else {  // a redirect that saved nothing (the game is over), or the form again
        const redirected = response.type === "opaqueredirect";
        await keep({ ...entry, state: "asked", status: response.status, page: redirected ? "" : await response.text() });
        held.add(entry.match);
        news.asked += 1;
      }
    }
    if (news.recorded.length || news.asked) await tell(news);
    return news;
  })().finally(() => (flushing = null));
  return flushing;
}

// What a page says about the outbox: each hand waiting or not saved, in the scorer's words.
async function lines() {
  const all = await entries();
  return {
    waiting: all.filter((e) => e.state === "waiting").length,
    lines: all.map((e) => {
      if (e.state === "waiting") return { text: say(SAID.waiting, hand(e)) };
      const why = e.status === 200 && e.page ? SAID.asked : SAID.refused;
      const open = `/matches/${e.match}/hands/new?outbox=${encodeURIComponent(e.token)}`;
      const opens = say(SAID.open, hand(e)), forgets = SAID.forget;
      return { text: say(why, hand(e)), open, opens, forgets, number: e.number, token: e.token, forget: !e.page };
    }),
  };
}

self.addEventListener("sync", (event) => { if (event.tag === "outbox") event.waitUntil(flush()); });

self.addEventListener("message", (event) => {
  const reply = (data) => event.ports[0] && event.ports[0].postMessage(data);
  const message = event.data || {};
  if (message.type === "flush") event.waitUntil(flush().then(reply));
  if (message.type === "outbox") event.waitUntil(lines().then(reply));
  if (message.type === "drop") event.waitUntil(drop(message.token).then(() => reply(true)));
  if (message.type === "take") {
    event.waitUntil(entries().then((all) => {
      const entry = all.find((e) => e.token === message.token) || null;
      return (entry ? drop(entry.token) : Promise.resolve()).then(() => reply(entry));
    }));
  }
});

// A hand the server answered with the form again opens as that answer: the question and
// the entries, the same token (so saving it can never record it twice).
async function asked(url) {
  const token = url.searchParams.get("outbox");
  const entry = token && (await entries()).find((e) => e.token === token);
  return entry && entry.page ? new Response(entry.page, { headers: { "Content-Type": "text/html; charset=utf-8" } }) : null;
}

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
    // Hands waiting go first, so the page shows them saved.
    const network = () => flush().catch(() => {}).then(() => fetch(request));
    event.respondWith(
      (record ? asked(url) : Promise.resolve(null))
        .then((hit) => hit || network())
        .then((response) => {
          if (scoreboard && response.ok) {
            const copy = response.clone();
            caches.open(PAGES).then((cache) => cache.put(url.pathname, copy));
          }
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
