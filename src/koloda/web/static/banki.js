// The banki referee on a phone in the yard: tap (or type) what happened; the server's referee
// (koloda.banki) says what it means and what comes next, and keeps every event.
// Offline first (docs/web.md, "Offline"): an event is kept on the phone (offline.js) and refereed at once
// by the browser's copy of the rules (rules-banki*.js, the same as the server's), then sent. A counting-out
// entered offline waits for the server (it draws it from the game's secret seed), and so do the events
// after it.
"use strict";

const GAME_ID = window.location.pathname.split("/")[2] || null;
const TARGET = `banki/${GAME_ID}`;
const RULES = KolodaRules.init(JSON.parse(document.getElementById("koloda-rules").textContent));
let server = null;   // the server's last answer (kept on the phone)
let pending = [];    // the events it has not confirmed, in order
let waiting = 0;     // of those, how many wait for the server (a counting-out and what follows it)
const RETRY_MS = 3000;  // a sending that found no answer is tried again after this long
let retry = null;
let notices = [];    // what the last sending changed
let game = null;     // what is shown: the server's game with the pending events refereed after it
let FORM = null;     // the new-game form's options (common.js presetForm)
let KEY = null;      // the game's edit key, if this browser holds it (common.js editKey): else it only watches
let path = [];  // the words of the event tapped so far

async function showList() {
  document.getElementById("list-view").classList.remove("hidden");
  let games;
  try {
    games = await api("GET", "/api/banki");
  } catch (e) {  // no network: the games kept on this phone, which open offline
    if (e.error !== "offline") throw e;
    games = await Offline.keptAll("banki/");
  }
  document.getElementById("games").replaceChildren(...games.map((g) =>
    el("li", {}, el("a", { href: `/banki/${g.id}` }, `#${g.id}: ${g.names.join(", ")}`))));
}

async function createGame(event) {
  event.preventDefault();
  try {
    const names = document.getElementById("names").value.split(",").map((n) => n.trim()).filter(Boolean);
    const preset = document.getElementById("banki-preset").value;
    const made = await api("POST", "/api/banki", { names, preset, options: FORM.changes() });
    keepKey(`banki/${made.id}`, made.key);  // given once, to this browser
    window.location.href = `/banki/${made.id}`;
  } catch (e) {
    document.getElementById("new-error").textContent = errorText(e);
  }
}

// Every event the referee accepts now, as a tree of words: a tap on a word shows the words that may follow
// it; a tap on a whole event puts it on the line (Enter sends it). A template (a kick, a newcomer, an
// order) puts its start on the line and waits for the rest to be typed. The buttons carry the referee's
// canonical words (data-word, data-event), and show and fill in the page's language: the server gives
// every event in both (game.ru.suggestions beside game.suggestions, word for word), and the referee reads
// either.
function localWords() {
  const said = {};
  const pairs = [[game.suggestions, game[lang()].suggestions], [game.templates, game[lang()].templates]];
  for (const [canonical, local] of pairs) {
    canonical.forEach((text, i) => {
      const words = text.split(" ");
      const shown = local[i].split(" ");
      words.forEach((word, k) => { if (!(word in said)) said[word] = shown[k]; });
    });
  }
  return said;
}

function localLine(text, template) {
  const list = template ? game.templates : game.suggestions;
  const at = list.indexOf(text);
  return at < 0 ? text : game[lang()][template ? "templates" : "suggestions"][at];
}

function renderChips() {
  const said = localWords();
  const shown = (text) => text.split(" ").map((word) => said[word] || word).join(" ");
  const prefix = path.join(" ");
  const starts = (text) => path.length === 0 || text === prefix || text.startsWith(prefix + " ");
  const events = game.suggestions.filter(starts);
  const templates = game.templates.filter(starts);
  const next = new Set();
  for (const text of [...events, ...templates]) {
    const words = text.split(" ");
    if (words.length > path.length) next.add(words[path.length]);
  }
  const chips = [];
  if (path.length) {
    chips.push(el("button", { class: "chip path", type: "button", dataset: { back: "1" }, "aria-label": `${t("web.back")}: ${shown(prefix)}`,
      onclick: () => { path.pop(); renderChips(); } }, "← " + shown(prefix)));
  }
  if (path.length && events.includes(prefix)) {
    chips.push(el("button", { class: "chip event", type: "button", dataset: { event: prefix }, onclick: () => put(localLine(prefix, false), false) }, shown(prefix) + " ⏎"));
  }
  if (path.length && templates.includes(prefix)) {
    chips.push(el("button", { class: "chip event", type: "button", dataset: { template: prefix }, onclick: () => put(localLine(prefix, true), true, prefix.startsWith("kick ")) }, shown(prefix) + " …"));
  }
  for (const word of next) {
    chips.push(el("button", { class: "chip", type: "button", dataset: { word }, onclick: () => { path.push(word); renderChips(); } }, said[word] || word));
  }
  document.getElementById("chips").replaceChildren(...chips);
}

// A kick's distance by taps: whole metres (any other, 7.5, is typed; the keyboard offers digits).
const KICK_METRES = Array.from({ length: 15 }, (_, i) => i + 1);

function put(text, more, kick) {
  const input = document.getElementById("event");
  input.value = more ? text + " " : text;
  input.inputMode = kick ? "decimal" : "text";
  document.querySelectorAll("#chips [data-metres]").forEach((chip) => chip.remove());
  if (!kick) { input.focus(); return; }
  document.getElementById("chips").append(...KICK_METRES.map((m) => el("button", { class: "chip", type: "button",
    dataset: { metres: m }, onclick: () => { input.value = `${text} ${m}`; } }, t("web.metres", { metres: m }))));
}

function render() {
  const text = game[lang()];
  document.getElementById("describe").textContent = text.describe;
  document.getElementById("news").replaceChildren(...text.news.map((line) => el("li", { class: "status" }, line)));
  document.getElementById("next").replaceChildren(...text.next.map((line) => el("li", {}, line)));
  const sent = text.history.length - (pending.length - waiting);
  document.getElementById("history").replaceChildren(...text.history.map((line, index) =>
    el("li", index >= sent ? { class: "pending", title: t("web.notSent") } : {}, line)));
  document.getElementById("undo").disabled = game.view.history.length === 0 && !pending.length;
  document.getElementById("undo").classList.toggle("hidden", !KEY);
  document.querySelector(".referee-entry").classList.toggle("hidden", !KEY);
  // The words tapped so far stay while they still start an event: the server's answer to the last event
  // often arrives between two taps of the next one.
  const fits = (text) => text === path.join(" ") || text.startsWith(path.join(" ") + " ");
  while (path.length && !game.suggestions.some(fits) && !game.templates.some(fits)) path.pop();
  renderChips();
  document.body.dataset.events = game.view.history.length;
}

// The server's game with the pending events after it, refereed by the browser's rules; the state, and how
// many of the events wait for the server (from a counting-out on, or one that no longer fits after another
// phone's events came first: the server refuses it then).
function localGame() {
  const state = RULES.banki.replay(server.source);
  let stopped = -1;
  pending.forEach((entry, index) => {
    if (stopped >= 0) return;
    try {
      RULES.banki.addEvent(state, entry.body.event);
    } catch (error) {
      if (error instanceof Error && !(error instanceof RULES.banki.NeedsServer)) throw error;
      stopped = index;
    }
  });
  return { state, waiting: stopped < 0 ? 0 : pending.length - stopped };
}

async function refresh() {
  pending = await Offline.pending(TARGET);
  const local = localGame();
  waiting = local.waiting;
  game = RULES.banki.toJson(server.id, local.state);
  render();
  await renderEntries();
}

async function enter(text) {
  const error = document.getElementById("event-error");
  error.textContent = "";
  if (waiting) {
    error.textContent = t("web.waitsForServer");
    return;
  }
  const { state } = localGame();
  try {
    RULES.banki.addEvent(state, text);
  } catch (e) {
    if (!(e instanceof RULES.banki.NeedsServer)) {
      if (e instanceof Error) throw e;
      error.textContent = errorText(e);
      return;
    }
  }
  const shown = state.history.length;
  await Offline.add(TARGET, { event: text }, { seq: shown, event: shown ? RULES.banki.eventText(state.history[shown - 1]) : text });
  document.getElementById("event").value = "";
  path = [];
  await refresh();
  await send();
}

// Send the pending events; then show the server's game, with a word on each event that the server
// numbered otherwise than this phone showed (another phone's events came first), and on each it refused.
async function send() {
  if (!pending.length || !navigator.onLine) return;
  const done = await Offline.sync(TARGET, `/api/banki/${GAME_ID}/events`, editHeaders(TARGET));
  for (const [entry, data] of done.sent) {
    server = data;
    if (data.entry.seq !== entry.shown.seq) notices.push({ key: "web.syncMoved", params: { event: entry.body.event, was: entry.shown.seq, seq: data.entry.seq } });
  }
  await refresh();
  if (done.offline && !retry) retry = setTimeout(() => { retry = null; send(); }, RETRY_MS);  // lost: again
}

// Take back the last event: asked first, naming it in the page's language; one not sent yet is taken back on
// the phone, one on the server needs the network.
async function undo() {
  const last = () => game[lang()].history[game[lang()].history.length - 1];
  if (!(await confirmAction(() => t("web.confirmUndoEvent", { event: last() }), () => t("web.undoYes")))) return;
  const error = document.getElementById("event-error");
  error.textContent = "";
  if (pending.length) {  // an event not sent yet: taken back on the phone
    await Offline.drop(pending[pending.length - 1]);
    await refresh();
    return;
  }
  try {
    server = await api("POST", `/api/banki/${GAME_ID}/undo`, undefined, editHeaders(TARGET));
    await Offline.keep(TARGET, server);
    await refresh();
  } catch (e) {
    error.textContent = e.error === "offline" ? t("web.undoNeedsNetwork") : errorText(e);
  }
}

async function renderEntries() {
  const refused = await Offline.refusedOf(TARGET);
  const box = document.getElementById("sync-notes");
  box.replaceChildren(
    ...notices.map((n) => el("li", { class: "changed" }, t(n.key, n.params))),
    ...refused.map((entry) => el("li", { class: "refused" },
      t("web.refusedEntry", { entry: entry.body.event, reason: errorText(entry.refusal) }), " ",
      el("button", { type: "button", class: "act", onclick: async () => { await Offline.discard(entry.key); await refresh(); } }, t("web.discard")))),
  );
  if (waiting) {
    box.append(el("li", { class: "waiting" }, t("web.waitsForServer"), " ", pending.slice(-waiting).map((entry) => entry.body.event).join(", ")));
  }
  if (pending.length) box.append(el("li", { class: "muted" }, t(navigator.onLine ? "web.unsent" : "web.keptOffline", { count: pending.length })));
  document.body.dataset.unsent = pending.length;
  document.body.dataset.refused = refused.length;
}

async function start() {
  langSwitch(() => {
    if (game) { refresh(); return; }
    document.querySelectorAll("#banki-preset option").forEach((option) => { option.textContent = presetText(option.value); });
    showList();
  });
  if (!GAME_ID) {
    document.getElementById("new-banki").addEventListener("submit", createGame);
    try {
      FORM = await presetForm("/api/banki/options", document.getElementById("banki-preset"), document.getElementById("banki-options"));
    } catch (e) {  // no network: a new game needs the server
      document.getElementById("new-error").textContent = errorText(e);
    }
    showList();
    return;
  }
  document.getElementById("game-view").classList.remove("hidden");
  KEY = editKey(TARGET);
  shareEditing(TARGET, KEY);
  document.getElementById("event-form").addEventListener("submit", (e) => {
    e.preventDefault();
    enter(document.getElementById("event").value);
  });
  document.getElementById("undo").addEventListener("click", undo);
  try {
    server = await api("GET", `/api/banki/${GAME_ID}`);
    await Offline.keep(TARGET, server);
  } catch (e) {
    server = e.error === "offline" ? await Offline.kept(TARGET) : null;
    if (!server) {
      document.getElementById("describe").textContent = e.error === "offline" ? t("web.notKept") : errorText(e);
      return;
    }
  }
  await refresh();
  window.addEventListener("online", send);
  await send();
}

start();
