// The lobby: create a table (game, players, rules, a human or a bot level in each seat), copy the
// seats' links, see the open tables and sit down in a free seat.
"use strict";

let GAMES = {};
let FORM = null;  // the rules of the chosen game, one control each (common.js optionsForm)

function fillSelect(select, values, label) {
  const current = select.value;
  select.replaceChildren(...values.map((v) => el("option", { value: v }, label ? label(v) : v)));
  if (values.map(String).includes(current)) select.value = current;
}

function renderForm() {
  const game = GAMES[document.getElementById("game").value];
  const [low, high] = game.players;
  const players = document.getElementById("players");
  fillSelect(players, Array.from({ length: high - low + 1 }, (_, i) => low + i));
  if (!players.dataset.touched) players.value = String(Math.min(high, Math.max(low, 3)));
  fillSelect(document.getElementById("preset"), game.presets, presetText);
  const box = document.getElementById("option-form");
  box.replaceChildren();
  FORM = optionsForm(box, game.schema);
  FORM.fill(game.preset_values[document.getElementById("preset").value]);
  renderSeats();
}

// A preset chosen: the rules' controls show its values (what is changed from them is sent).
function renderPreset() {
  const game = GAMES[document.getElementById("game").value];
  FORM.fill(game.preset_values[document.getElementById("preset").value]);
}

function renderSeats() {
  const count = Number(document.getElementById("players").value);
  const box = document.getElementById("seats");
  const old = [...box.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector(".kind").value, level: row.querySelector(".level").value, name: row.querySelector(".name").value,
    open: row.querySelector(".open input").checked,
  }));
  const rows = [];
  for (let i = 0; i < count; i++) {
    const prev = old[i] || { kind: i === 0 ? "human" : "bot", level: "medium", name: "", open: false };
    const kind = el("select", { class: "kind", "aria-label": `${t("web.seatWord")} ${i + 1}` },
      el("option", { value: "human" }, t("web.human")), el("option", { value: "bot" }, t("web.bot")));
    kind.value = prev.kind;
    const level = el("select", { class: "level", "aria-label": `${t("web.level")} ${i + 1}` },
      ...GAMES.levels.map((lv) => el("option", { value: lv }, levelText(lv))));
    level.value = prev.level;
    const name = el("input", { type: "text", class: "name", placeholder: t("web.name"), maxlength: "40", value: prev.name,
      "aria-label": `${t("web.name")} ${i + 1}` });
    // a human seat is taken with its link only, unless the host opens it to anyone in the lobby
    const open = el("label", { class: "open" }, el("input", { type: "checkbox", checked: prev.open }), " ", t("web.openSeat"));
    const sync = () => {
      level.classList.toggle("hidden", kind.value !== "bot");
      open.classList.toggle("hidden", kind.value === "bot");
    };
    kind.addEventListener("change", sync);
    sync();
    rows.push(el("div", { class: "seat-row", dataset: { seat: i } }, el("strong", {}, `${i + 1}.`), kind, level, name, open));
  }
  box.replaceChildren(...rows);
}

function parseOptions(text) {
  const options = {};
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const at = line.indexOf("=");
    if (at < 0) throw { message: `${line}: key=value` };
    const key = line.slice(0, at).trim();
    const raw = line.slice(at + 1).trim();
    let value;
    try { value = JSON.parse(raw); } catch { value = raw; }
    options[key] = value;
  }
  return options;
}

async function createTable(event) {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.textContent = "";
  try {
    const seats = [...document.querySelectorAll("#seats .seat-row")].map((row, i) => {
      const seat = { kind: row.querySelector(".kind").value };
      if (seat.kind === "bot") seat.level = row.querySelector(".level").value;
      else seat.open = row.querySelector(".open input").checked;
      // an unnamed seat is named in the page's language, not in the server's default (English)
      seat.name = row.querySelector(".name").value.trim() || `${seat.kind === "bot" ? t("web.bot") : t("web.playerWord")} ${i + 1}`;
      return seat;
    });
    const body = {
      game: document.getElementById("game").value,
      players: Number(document.getElementById("players").value),
      preset: document.getElementById("preset").value,
      options: { ...FORM.changes(), ...parseOptions(document.getElementById("options").value) },
      seats,
    };
    const made = await api("POST", "/api/tables", body);
    showLinks(made, seats);
    loadTables();
  } catch (e) {
    error.textContent = errorText(e);
  }
}

function showLinks(made, seats) {
  const base = window.location.origin;
  const rows = made.links.map((link, i) => {
    if (!link) return el("div", { class: "seat-row" }, `${i + 1}. ${t("web.bot")} (${levelText(seats[i].level)})`);
    const url = base + link;
    const copy = el("button", { class: "act", type: "button", onclick: async () => {
      try { await navigator.clipboard.writeText(url); copy.textContent = t("web.copied"); } catch { copy.textContent = "⌘C"; }
    } }, t("web.copy"));
    return el("div", { class: "seat-row" }, `${i + 1}. ${seats[i].name || t("web.human")}`,
      el("a", { class: "link seat-link", href: link, dataset: { seat: i } }, url), copy);
  });
  rows.push(el("div", { class: "seat-row" }, `${t("web.watch")}:`, el("a", { class: "link", href: made.spectate }, base + made.spectate)));
  document.getElementById("links").replaceChildren(...rows);
  document.getElementById("created").classList.remove("hidden");
}

async function loadTables() {
  const tables = await api("GET", "/api/tables");
  const list = document.getElementById("tables");
  if (!tables.length) { list.replaceChildren(el("li", { class: "muted" }, t("web.none"))); return; }
  list.replaceChildren(...tables.map((table) => {
    const title = GAMES[table.game] ? GAMES[table.game].title[lang()] : table.game;
    const seats = table.seats.map((seat, i) => {
      if (seat.bot || seat.taken || !seat.open || table.over) {
        return el("span", { class: "muted" }, `${i + 1}. ${seatName(seat.name, i)}${seat.bot ? ` (${levelText(seat.bot)})` : ""}`);
      }
      return el("button", { class: "act join", type: "button", dataset: { table: table.id, seat: i },
        onclick: () => joinSeat(table.id, i) }, t("web.joinSeat", { number: i + 1, name: seatName(seat.name, i) }));
    });
    return el("li", {}, el("strong", {}, `${t("web.table")} ${table.id}: ${title}`), table.over ? `(${t("web.over")})` : "",
      ...seats, el("a", { href: `/table/${table.id}` }, t("web.watch")));
  }));
}

async function joinSeat(tableId, seat) {
  try {
    const name = window.prompt(t("web.name"), "") || undefined;
    const joined = await api("POST", `/api/tables/${tableId}/join`, { seat, name: name && name.trim() ? name.trim() : undefined });
    window.location.href = joined.link;
  } catch (e) {
    document.getElementById("create-error").textContent = errorText(e);
    loadTables();
  }
}

async function start() {
  GAMES = await api("GET", "/api/games");
  const names = Object.keys(GAMES).filter((k) => k !== "levels");
  fillSelect(document.getElementById("game"), names, (n) => GAMES[n].title[lang()]);
  document.getElementById("game").addEventListener("change", renderForm);
  document.getElementById("preset").addEventListener("change", renderPreset);
  document.getElementById("players").addEventListener("change", (e) => { e.target.dataset.touched = "1"; renderSeats(); });
  document.getElementById("new-table").addEventListener("submit", createTable);
  renderForm();
  langSwitch(() => {
    fillSelect(document.getElementById("game"), names, (n) => GAMES[n].title[lang()]);
    fillSelect(document.getElementById("preset"), GAMES[document.getElementById("game").value].presets, presetText);
    renderSeats();
    loadTables();
  });
  loadTables();
  setInterval(loadTables, 5000);
}

start();
