// The banki referee on a phone in the yard: tap (or type) what happened; the server's referee
// (koloda.banki) says what it means and what comes next, and keeps every event.
"use strict";

const GAME_ID = window.location.pathname.split("/")[2] || null;
let game = null;
let OPTIONS = null;  // what the new-game form offers (GET /api/banki/options)
let FORM = null;
let path = [];  // the words of the event tapped so far

async function showList() {
  document.getElementById("list-view").classList.remove("hidden");
  const games = await api("GET", "/api/banki");
  document.getElementById("games").replaceChildren(...games.map((g) =>
    el("li", {}, el("a", { href: `/banki/${g.id}` }, `#${g.id}: ${g.names.join(", ")}`))));
}

async function showForm() {
  OPTIONS = await api("GET", "/api/banki/options");
  const preset = document.getElementById("banki-preset");
  preset.replaceChildren(...OPTIONS.presets.map((name) => el("option", { value: name }, presetText(name))));
  FORM = optionsForm(document.getElementById("banki-options"), OPTIONS.schema);
  FORM.fill(OPTIONS.preset_values[preset.value]);
  preset.addEventListener("change", () => FORM.fill(OPTIONS.preset_values[preset.value]));
}

async function createGame(event) {
  event.preventDefault();
  try {
    const names = document.getElementById("names").value.split(",").map((n) => n.trim()).filter(Boolean);
    const preset = document.getElementById("banki-preset").value;
    const made = await api("POST", "/api/banki", { names, preset, options: FORM.changes() });
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
  document.getElementById("history").replaceChildren(...text.history.map((line) => el("li", {}, line)));
  document.getElementById("undo").disabled = game.view.history.length === 0;
  path = [];
  renderChips();
  document.body.dataset.events = game.view.history.length;
}

// Take back the last event: asked first, naming it in the page's language.
async function undo() {
  const last = () => game[lang()].history[game[lang()].history.length - 1];
  if (!(await confirmAction(() => t("web.confirmUndoEvent", { event: last() }), () => t("web.undoYes")))) return;
  send(`/api/banki/${GAME_ID}/undo`);
}

async function send(url, body) {
  const error = document.getElementById("event-error");
  error.textContent = "";
  try {
    game = await api("POST", url, body);
    document.getElementById("event").value = "";
    render();
  } catch (e) {
    error.textContent = errorText(e);
  }
}

async function start() {
  langSwitch(() => {
    if (game) { render(); return; }
    document.querySelectorAll("#banki-preset option").forEach((option) => { option.textContent = presetText(option.value); });
    showList();
  });
  if (!GAME_ID) {
    document.getElementById("new-banki").addEventListener("submit", createGame);
    await showForm();
    showList();
    return;
  }
  document.getElementById("game-view").classList.remove("hidden");
  document.getElementById("event-form").addEventListener("submit", (e) => {
    e.preventDefault();
    send(`/api/banki/${GAME_ID}/events`, { event: document.getElementById("event").value });
  });
  document.getElementById("undo").addEventListener("click", undo);
  try {
    game = await api("GET", `/api/banki/${GAME_ID}`);
    render();
  } catch (e) {
    document.getElementById("describe").textContent = errorText(e);
  }
}

start();
