// The banki referee on a phone in the yard: type (or tap) what happened; the server's referee
// (koloda.banki) says what it means and what comes next, and keeps every event.
"use strict";

const GAME_ID = window.location.pathname.split("/")[2] || null;
let game = null;

async function showList() {
  document.getElementById("list-view").classList.remove("hidden");
  const games = await api("GET", "/api/banki");
  document.getElementById("games").replaceChildren(...games.map((g) =>
    el("li", {}, el("a", { href: `/banki/${g.id}` }, `#${g.id}: ${g.names.join(", ")}`))));
}

async function createGame(event) {
  event.preventDefault();
  try {
    const names = document.getElementById("names").value.split(",").map((n) => n.trim()).filter(Boolean);
    const made = await api("POST", "/api/banki", { names, preset: document.getElementById("banki-preset").value });
    window.location.href = `/banki/${made.id}`;
  } catch (e) {
    document.getElementById("new-error").textContent = errorText(e);
  }
}

function render() {
  const text = game[lang()];
  document.getElementById("describe").textContent = text.describe;
  document.getElementById("news").replaceChildren(...text.news.map((line) => el("li", { class: "status" }, line)));
  document.getElementById("next").replaceChildren(...text.next.map((line) => el("li", {}, line)));
  document.getElementById("history").replaceChildren(...game.view.history.map((line) => el("li", {}, line)));
  document.getElementById("undo").disabled = game.view.history.length === 0;
  document.getElementById("chips").replaceChildren(...game.suggestions.map((line) =>
    el("button", { class: "chip", type: "button", onclick: () => {
      const input = document.getElementById("event");
      input.value = line;
      input.focus();
    } }, line)));
  document.body.dataset.events = game.view.history.length;
}

async function send(path, body) {
  const error = document.getElementById("event-error");
  error.textContent = "";
  try {
    game = await api("POST", path, body);
    document.getElementById("event").value = "";
    render();
  } catch (e) {
    error.textContent = errorText(e);
  }
}

async function start() {
  langSwitch(() => { if (game) render(); else showList(); });
  if (!GAME_ID) {
    document.getElementById("new-banki").addEventListener("submit", createGame);
    showList();
    return;
  }
  document.getElementById("game-view").classList.remove("hidden");
  document.getElementById("event-form").addEventListener("submit", (e) => {
    e.preventDefault();
    send(`/api/banki/${GAME_ID}/events`, { event: document.getElementById("event").value });
  });
  document.getElementById("undo").addEventListener("click", () => send(`/api/banki/${GAME_ID}/undo`));
  try {
    game = await api("GET", `/api/banki/${GAME_ID}`);
    render();
  } catch (e) {
    document.getElementById("describe").textContent = errorText(e);
  }
}

start();
