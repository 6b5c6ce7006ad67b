// Scorekeeper: small enhancements; every page works without them.
"use strict";
(function () {
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const el = (tag, text) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; return e; };
  // Words come from the server, in the reader's language ("%(name)s" filled in here).
  const lang = document.documentElement.lang || undefined;
  const say = (text, values) => (text || "").replace(/%\((\w+)\)s/g, (_, name) => values[name]);
  const number = (n) => new Intl.NumberFormat(lang).format(n);

  // Printed, folded sections show what they hold.
  addEventListener("beforeprint", () => $$("details").forEach((d) => (d.open = true)));

  // Local times instead of UTC.
  const localTimes = (root) =>
    $$("time[datetime]", root).forEach((t) => {
      const d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) t.textContent = d.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
    });
  localTimes();

  // A scoreboard follows the match live: a cheap 304 while nothing changed.
  const live = document.getElementById("live");
  if (live && live.dataset.live) {
    let etag = live.dataset.etag, busy = false;
    const news = document.getElementById("live-news"), state = document.getElementById("live-state");
    const poll = async () => {
      if (busy || document.hidden) return;
      busy = true;
      try {
        const r = await fetch(live.dataset.live, { headers: { "If-None-Match": '"' + etag + '"' }, cache: "no-store" });
        if (r.status === 200) {
          live.innerHTML = await r.text();
          etag = (r.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
          localTimes(live);
          news.textContent = live.dataset.news || say(live.dataset.updated, { scores: $$(".side-card", live)
            .map((card) => card.querySelector("h2").textContent + " " + card.querySelector(".total").lastChild.textContent)
            .join(", ") });
        }
        if (r.ok || r.status === 304) state.textContent = live.dataset.following || live.dataset.on;
        else if (r.status === 401 || r.status === 403 || r.status === 404) {
          state.textContent = live.dataset.ended;
          news.textContent = state.textContent;
          clearInterval(timer);
        }
      } catch (e) {
        state.textContent = live.dataset.offline;
      }
      busy = false;
    };
    const timer = setInterval(poll, Number(live.dataset.every) || 2000);
    document.addEventListener("visibilitychange", poll);
  }

  // Small counts are one tap: 1 2 3 4 beside the input, which takes any count (a tap on
  // the chosen one empties it).
  $$("input[data-stepper]").forEach((input) => {
    const row = Object.assign(el("div"), { className: "counts" });
    input.before(row);
    const buttons = [1, 2, 3, 4].map((n) => {
      const b = Object.assign(el("button", n), { type: "button", onclick: () => {
        input.value = input.value == n ? "" : n;
        input.dispatchEvent(new Event("input", { bubbles: true }));
      } });
      b.setAttribute("aria-label", input.labels[0].textContent + ": " + n);
      return b;
    });
    const mark = () => buttons.forEach((b, i) => b.setAttribute("aria-pressed", input.value == i + 1));
    input.addEventListener("input", mark);
    input.addEventListener("change", mark);
    mark();
    row.append(...buttons, input);
  });

  // Points or count cards: show only the chosen way.
  $$("[data-mode-group]").forEach((group) => {
    const radios = $$("input[type=radio]", group);
    const show = () => {
      const mode = (radios.find((r) => r.checked) || { value: "points" }).value;
      $$("[data-mode-panel]", group).forEach((p) => (p.hidden = p.dataset.modePanel !== mode));
    };
    radios.forEach((r) => r.addEventListener("change", show));
    show();
  });

  // Installable, with an offline page when the Wi-Fi drops (HTTPS or localhost only).
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});

  // Ask the service worker (which keeps hands saved while offline) and get its answer.
  const worker = (message) =>
    new Promise((resolve) => {
      const sw = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (!sw) return resolve(null);
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data);
      sw.postMessage(message, [channel.port2]);
    });

  const DRAFT = "draft:";
  const board = document.getElementById("board");
  if (board) {
    // Drafts of hands saved since are let go; the one being typed is kept.
    const id = board.dataset.match, next = Number(board.dataset.next);
    const versions = board.dataset.versions.split(" ");
    Object.keys(localStorage).forEach((key) => {
      const [m, mode, number, version] = key.slice(DRAFT.length).split(":");
      if (!key.startsWith(DRAFT) || m !== "m" + id) return;
      const stale = mode === "new" ? Number(number) < next : versions[number - 1] !== version;
      if (stale) localStorage.removeItem(key);
    });
  }

  // Hands saved while offline wait in the service worker's outbox: every page says where
  // they stand and sends them within seconds of the connection coming back.
  const note = Object.assign(el("div"), { id: "outbox", className: "outbox" });
  note.setAttribute("role", "status");
  document.querySelector("main").prepend(note);
  const button = (tag, text, props) => Object.assign(el(tag, text), { className: "button" }, props);
  let retry, news = [];
  const tell = (state) => {
    if (!state) return;
    clearTimeout(retry);
    if (state.waiting) retry = setTimeout(flush, 3000);
    note.replaceChildren(...news.concat(state.lines).map((line) => {
      const p = el("p", line.text);
      if (line.open) p.append(" ", button("a", line.opens, { href: line.open }));
      if (line.forget) p.append(" ", button("button", line.forgets, { onclick: () => worker({ type: "drop", token: line.token }).then(update) }));
      return p;
    }));
  };
  const update = () => worker({ type: "outbox" }).then(tell);
  const flush = () => worker({ type: "flush" }).then(update);
  const offline = document.getElementById("offline");
  let leaving = false;  // one reload at a time, so its page (and flashed message) stays
  const reload = () => leaving || ((leaving = true), location.reload());
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", (event) => {
      const sent = (event.data || {}).recorded;
      if (!sent) return;
      // A scoreboard of the match without the hand (or the offline page) shows it saved.
      if (sent.some((r) => offline || (board && r.match == board.dataset.match && board.dataset.next <= +r.number))) return reload();
      news = news.concat(sent.map((r) => ({ text: r.text })));
      update();
    });
  }
  addEventListener("online", flush);
  flush();
  if (offline && location.pathname !== "/offline") setInterval(() => fetch("/manifest.webmanifest").then((r) => r.ok && reload(), () => {}), 3000);

  // "Deals first" names the players as their names are typed.
  $$("input[id^=seat_]").forEach((input) => {
    const choice = document.querySelector(`label[for=first_dealer-${input.id.slice(5)}] span`);
    if (!choice) return;
    const seat = choice.textContent;
    const update = () => (choice.textContent = input.value.trim() ? `${input.value.trim()} (${seat})` : seat);
    input.addEventListener("input", update);
    update();
  });

  // One submit per tap.
  $$("form[method=post]").forEach((form) =>
    form.addEventListener("submit", () => {
      setTimeout(() => $$("button[type=submit]", form).forEach((b) => (b.disabled = true)), 0);
    })
  );

  // Chances to win of the sides named on the new-match page.
  const odds = document.getElementById("chances");
  if (odds) {
    const setup = odds.closest("form");
    let wait, asked = 0;
    setup.addEventListener("input", () => {
      clearTimeout(wait);
      wait = setTimeout(async () => {
        const url = new URL(odds.dataset.chances, location.href), mine = ++asked;
        new FormData(setup).forEach((v, k) => /^(seat_|group$)/.test(k) && url.searchParams.append(k, v));
        const r = await fetch(url).catch(() => 0);
        const html = r.status === 200 ? await r.text() : "";
        if (mine === asked) odds.innerHTML = html;
      }, 300);
    });
  }

  const form = document.querySelector("form.hand-form");
  if (!form) return;

  // A problem listed at the top focuses its input when tapped (a group: its first choice).
  $$("#form-errors a").forEach((a) => a.addEventListener("click", (event) => {
    const target = document.getElementById(a.hash.slice(1));
    const input = target && (target.matches("fieldset") ? target.querySelector("input") : target);
    if (input) { event.preventDefault(); input.focus(); }
  }));

  // What the scorer typed survives a reload, a lost connection or a server error.
  const draftKey = DRAFT + form.dataset.draft;
  const kept = (el) => el.name && !["csrf_token", "confirmed", "expected_number", "version"].includes(el.name);
  const fields = () => $$("input, select, textarea", form).filter(kept);
  const remember = () => {
    const data = {};
    fields().forEach((el) => {
      if (el.type === "radio" || el.type === "checkbox") { if (el.checked) (data[el.name] = data[el.name] || []).push(el.value); }
      else data[el.name] = el.value;
    });
    try { localStorage.setItem(draftKey, JSON.stringify(data)); } catch (e) { /* storage full or off */ }
  };
  const refill = (data) => {
    fields().forEach((el) => {
      if (el.type === "radio" || el.type === "checkbox") el.checked = (data[el.name] || []).includes(el.value);
      else if (el.name in data) el.value = data[el.name];
      el.dispatchEvent(new Event("change", { bubbles: true }));
    });
    remember();
    document.getElementById("restored").hidden = false;
  };
  form.addEventListener("input", remember);
  form.addEventListener("change", remember);
  const restore = () => { const saved = localStorage.getItem(draftKey); if (saved) refill(JSON.parse(saved)); };
  const fromOutbox = new URLSearchParams(location.search).get("outbox");
  if (fromOutbox) {
    // A hand from the outbox becomes this form's draft (it leaves the outbox).
    worker({ type: "take", token: fromOutbox }).then((entry) => {
      if (!entry) return restore();
      const data = {};
      new URLSearchParams(entry.body).forEach((value, name) => {
        const el = form.elements[name];
        const choice = el instanceof RadioNodeList || (el && el.type === "checkbox");
        data[name] = choice ? [...(data[name] || []), value] : value;
      });
      refill(data);
    });
  } else if ("fresh" in form.dataset) restore();
  document.getElementById("forget").addEventListener("click", () => {
    localStorage.removeItem(draftKey);
    location.replace(location.pathname);
  });

  // Next (Enter) walks every side's entries, check boxes too, from the side that went out
  // round to the others; after the last one it saves.
  const NEXT = "input[inputmode=numeric], input[type=text], input[type=checkbox]";
  const chain = () => {
    const sides = $$("fieldset.side", form).filter((fs) => !fs.disabled);
    const out = form.querySelector("input[name=out]:checked");
    const own = out && form.querySelector(`fieldset.side[data-side="${out.value}"]`);
    const seat = own && (own.dataset.holder || own.dataset.side);
    const first = Math.max(0, sides.findIndex((fs) => fs.dataset.side === seat));
    return sides.slice(first).concat(sides.slice(0, first))
      .flatMap((fs) => $$(NEXT, fs).filter((i) => !i.disabled && (i.checkVisibility ? i.checkVisibility() : i.offsetParent)));
  };
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !event.target.matches(NEXT)) return;
    event.preventDefault();
    const all = chain(), next = all[all.indexOf(event.target) + 1];
    if (next) next.focus();
    else form.requestSubmit();
  });

  // Who went out: that side's first number opens at once, and its extra hand is ticked
  // where going out needs it (a box ticked this way is unticked if the choice changes).
  form.addEventListener("change", (event) => {
    const choice = event.target;
    if (choice.name !== "out" || !event.isTrusted) return;
    // A pair's second player went out: the pair's inputs are its first player's.
    const own = form.querySelector(`fieldset.side[data-side="${choice.value}"]`);
    const seat = (own && own.dataset.holder) || choice.value;
    $$("input[data-follows-out]", form).forEach((box) => {
      const mine = box.closest("fieldset.side").dataset.side === seat;
      if (mine && !box.checked) { box.checked = true; box.dataset.auto = "1"; }
      else if (!mine && box.dataset.auto) { box.checked = false; delete box.dataset.auto; }
      else return;
      box.dispatchEvent(new Event("change", { bubbles: true }));
    });
    const first = chain()[0];  // "Nobody": the first side's first entry
    if (first) first.focus();
  });

  // Burraco for three: a pair enters its cards once, in its first player's inputs (the
  // second player's are set aside); the player alone took the pozzetto.
  function lineUp() {
    const choice = form.querySelector("input[name=lineup]:checked");
    const alone = choice && choice.value.startsWith("alone:") ? choice.value.slice(6) : null;
    const seats = $$("fieldset.side", form);
    const pair = alone === null ? [] : seats.filter((fs) => fs.dataset.side !== alone);
    seats.forEach((fs) => {
      const second = pair.length > 1 && fs === pair[1];
      fs.hidden = fs.disabled = second;
      if (second) fs.dataset.holder = pair[0].dataset.side; else delete fs.dataset.holder;
      let note = fs.querySelector(".pair-note");
      if (!note) { note = document.createElement("p"); note.className = "pair-note"; fs.querySelector("legend").after(note); }
      note.hidden = !(pair.length > 1 && fs === pair[0]);
      note.textContent = note.hidden ? "" : JSON.parse(form.dataset.pairs)[alone];
      const box = fs.querySelector("input[name$=_took_extra_hand]");
      const lone = fs.dataset.side === alone;
      if (box && lone) box.checked = true;
      if (box) box.disabled = lone;
    });
  }
  if (form.querySelector("input[name=lineup]")) {
    form.addEventListener("change", (event) => { if (event.target.name === "lineup") lineUp(); });
    lineUp();
  }
  // A special hand scores alone: the side's other inputs are set aside (hidden and not
  // sent), and the side is marked as the one that went out.
  const setAside = (select) => {
    const on = select.value !== "none";
    $$(".special-aside", select.closest("fieldset.side")).forEach((aside) => {
      aside.hidden = on;
      $$("input, select, textarea", aside).forEach((i) => (i.disabled = on));
    });
    return on;
  };
  $$("select[data-special]", form).forEach((select) => {
    setAside(select);
    select.addEventListener("change", () => {
      const out = form.querySelector(`input[name=out][value="${select.closest("fieldset.side").dataset.side}"]`);
      if (setAside(select) && out && !out.checked) {
        out.checked = true;
        out.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  });

  const panel = document.getElementById("preview");
  const body = document.getElementById("preview-body");
  const summary = document.getElementById("preview-summary");
  const signed = (n) => (n > 0 ? "+" + number(n) : number(n));

  function show(data, ok) {
    const list = el("ul");
    const sides = $$("fieldset.side", form);
    if (ok) {
      data.sides.forEach((s, i) => {
        const fs = sides[i];
        const item = el("li");
        const before = Number(fs.dataset.total) || 0;
        item.append(el("strong", fs.dataset.name + ": " + signed(s.total)), " " + say(data.said.total, { total: number(before + s.total) }));
        const lines = el("ul");
        s.lines.forEach((l) => l.points && lines.append(el("li", l.label + ": " + signed(l.points))));
        item.append(lines);
        list.append(item);
      });
    } else {
      (data.errors || []).forEach((e) => list.append(el("li", e.message)));
    }
    body.replaceChildren(el("p", ok ? data.said.saved : data.said.invalid), list);
    panel.hidden = false;
    summary.textContent = ok
      ? data.sides.map((s, i) => sides[i].dataset.name + " " + signed(s.total)).join(" · ")
      : data.said.below;
    summary.hidden = false;
  }

  let timer, seq = 0;
  function preview() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const mine = ++seq;
      try {
        // The form as it stands, read by the server exactly as a save reads it.
        const r = await fetch(form.dataset.preview, { method: "POST", body: new URLSearchParams(new FormData(form)) });
        const data = await r.json();
        if (mine === seq && (r.ok || r.status === 422)) show(data, r.ok);
      } catch (e) { /* offline: the form still works */ }
    }, 300);
  }
  form.addEventListener("input", preview);
  form.addEventListener("change", preview);
  if (form.querySelector("input[name=out]:checked")) preview();
})();
