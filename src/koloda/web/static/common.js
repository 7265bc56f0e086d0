// Shared by every page: the two languages, cards drawn in CSS, the score chart in SVG, the JSON API.
"use strict";

const WORDS = {
  ru: {
    lobby: "Лобби", sheet: "Запись «Тысячи»", newTable: "Новый стол", game: "Игра", players: "Игроков",
    preset: "Вариант правил", options: "Свои правила (ключ=значение, по строке)", seats: "Места",
    human: "Человек", bot: "Бот", playerWord: "Игрок", name: "Имя", create: "Создать стол", links: "Ссылки мест",
    copy: "Копировать", copied: "Скопировано", openTables: "Открытые столы", join: "Сесть", watch: "Смотреть",
    free: "свободно", over: "окончен", none: "Пока нет столов.", table: "Стол", yourTurn: "Ваш ход",
    turnOf: "Ходит", you: "вы", hand: "Ваши карты", log: "Ход игры", scores: "Счёт", deal: "Кон",
    bank: "Банк", toCover: "Покрыть", stock: "Колода", trumps: "Козыри", captured: "Взято",
    bidding: "Торговля", talon: "Прикуп", trick: "Взятка", lastTrick: "Прошлая взятка", contract: "Игра",
    trump: "Козырь", marriages: "Марьяжи", bid: "Заказать", pass: "Пас", bomb: "Бомба", give: "Отдать",
    to: "→", matchOver: "Партия окончена", winner: "Победитель", connection: "Связь", offline: "нет связи",
    online: "на связи", spectator: "Вы смотрите со стороны", totals: "Итого", bonuses: "Премии",
    penalties: "Штрафы", result: "Очки за кон", declarer: "Играет", points: "Очки", marriage: "Марьяж",
    addDeal: "Записать кон", undo: "Отменить последний кон", export: "Скачать", newSheet: "Новая запись",
    sheets: "Записи", playersNames: "Игроки (через запятую)", start: "Начать", chart: "График",
    sitting: "Сидит на прикупе", level: "Уровень", easy: "лёгкий", medium: "средний", hard: "сильный",
    draw: "взять", deals: "конов", noMoves: "Ждём других игроков…", phase: "Фаза", error: "Ошибка",
    line800: "линия", barrel: "бочка", target: "цель", seatWord: "Место", play: "Играть", pickGift: "Выберите карту, которую отдать",
    giftsGiven: "Отдано", score: "Очки", bankGame: "Банк", thousandGame: "Тысяча", home: "Лобби", cardsWord: "карт", dealerWord: "сдаёт", setContract: "Объявить игру", tricksWord: "Взяток", banki: "Банки", newBanki: "Новая игра в банки", games: "Игры", enter: "Записать", undoEvent: "Отменить",
  },
  en: {
    lobby: "Lobby", sheet: "Thousand score sheet", newTable: "New table", game: "Game", players: "Players",
    preset: "Rules preset", options: "House rules (key=value, one a line)", seats: "Seats",
    human: "Human", bot: "Bot", playerWord: "Player", name: "Name", create: "Create table", links: "Seat links",
    copy: "Copy", copied: "Copied", openTables: "Open tables", join: "Sit down", watch: "Watch",
    free: "free", over: "over", none: "No tables yet.", table: "Table", yourTurn: "Your turn",
    turnOf: "To move", you: "you", hand: "Your cards", log: "Play so far", scores: "Scores", deal: "Deal",
    bank: "Bank", toCover: "Cover", stock: "Stock", trumps: "Trumps", captured: "Taken",
    bidding: "Bidding", talon: "Talon", trick: "Trick", lastTrick: "Last trick", contract: "Contract",
    trump: "Trump", marriages: "Marriages", bid: "Bid", pass: "Pass", bomb: "Bomb", give: "Give",
    to: "→", matchOver: "The match is over", winner: "Winner", connection: "Connection", offline: "offline",
    online: "online", spectator: "You are watching", totals: "Totals", bonuses: "Bonuses",
    penalties: "Penalties", result: "Deal score", declarer: "Declarer", points: "Points", marriage: "Marriage",
    addDeal: "Add the deal", undo: "Undo the last deal", export: "Download", newSheet: "New sheet",
    sheets: "Sheets", playersNames: "Players (comma separated)", start: "Start", chart: "Chart",
    sitting: "Sitting out", level: "Level", easy: "easy", medium: "medium", hard: "hard",
    draw: "draw", deals: "deals", noMoves: "Waiting for the others…", phase: "Phase", error: "Error",
    line800: "line", barrel: "barrel", target: "target", seatWord: "Seat", play: "Play", pickGift: "Pick a card to give",
    giftsGiven: "Given", score: "Score", bankGame: "Bank", thousandGame: "Thousand", home: "Lobby", cardsWord: "cards", dealerWord: "deals", setContract: "Set the contract", tricksWord: "Tricks", banki: "Banki", newBanki: "New game of banki", games: "Games", enter: "Enter", undoEvent: "Undo",
  },
};

function lang() {
  const stored = localStorage.getItem("koloda-lang");
  return stored === "en" || stored === "ru" ? stored : "ru";
}

function t(key) {
  return (WORDS[lang()] || WORDS.ru)[key] || key;
}

// A refusal of the server ({"error" or "code", "field", "message", "message_ru"}) or a failed fetch.
function errorText(error) {
  return lang() === "ru" && error.message_ru ? error.message_ru : error.message;
}

function applyWords(root) {
  (root || document).querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.documentElement.lang = lang();
}

function langSwitch(onChange) {
  const button = document.getElementById("lang");
  const show = () => { button.textContent = lang() === "ru" ? "English" : "Русский"; };
  show();
  button.addEventListener("click", () => {
    localStorage.setItem("koloda-lang", lang() === "ru" ? "en" : "ru");
    show();
    applyWords();
    if (onChange) onChange();
  });
  applyWords();
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
const RANKS_RU = { J: "В", Q: "Д", K: "К", A: "Т" };

function cardParts(text) {
  const suit = text.slice(-1);
  const rank = text.slice(0, -1);
  return { rank: lang() === "ru" ? (RANKS_RU[rank] || rank) : rank, suit: SUITS[suit] || suit, red: suit === "H" || suit === "D" };
}

// One card as CSS: rank and suit in the corners, the suit large in the middle.
function cardEl(text, extra) {
  const { rank, suit, red } = cardParts(text);
  const node = el("div", { class: `card${red ? " red" : ""}${extra ? " " + extra : ""}`, title: text },
    el("span", { class: "corner top" }, rank, el("br"), suit),
    el("span", { class: "pip" }, suit),
    el("span", { class: "corner bottom" }, rank, el("br"), suit));
  node.dataset.card = text;
  return node;
}

function cardBack(extra) {
  return el("div", { class: `card back${extra ? " " + extra : ""}` });
}

// An action's notation with suit symbols ("KH+QH+JH+9H" -> "К♥ Д♥ В♥ 9♥").
function prettyAction(text) {
  return text.replace(/(10|[2-9JQKA])([SCDH])/g, (_, rank, suit) => {
    const shown = lang() === "ru" ? (RANKS_RU[rank] || rank) : rank;
    return shown + SUITS[suit];
  }).replace(/\+(?=\S)/g, " ").replace(/^draw$/, t("draw")).replace(/^pass$/, t("pass")).replace(/^bomb$/, t("bomb"));
}

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];

// Every player's total over the deals, with the target, the 800 line and the barrel drawn across.
function chartSvg(chart) {
  const width = 560, height = 260, left = 46, right = 12, top = 14, bottom = 28;
  const values = chart.series.flat().concat([0, chart.target]);
  if (chart.line_800 !== null && chart.line_800 !== undefined) values.push(chart.line_800);
  if (chart.barrel !== null && chart.barrel !== undefined) values.push(chart.barrel);
  const low = Math.min(...values), high = Math.max(...values);
  const deals = Math.max(1, ...chart.series.map((s) => s.length - 1));
  const x = (i) => left + (i / deals) * (width - left - right);
  const y = (v) => top + (1 - (v - low) / Math.max(1, high - low)) * (height - top - bottom);
  const parts = [`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${t("chart")}" xmlns="http://www.w3.org/2000/svg">`];
  parts.push(`<line x1="${left}" y1="${y(0)}" x2="${width - right}" y2="${y(0)}" class="axis"/>`);
  parts.push(`<line x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}" class="axis"/>`);
  const hline = (value, cls, label) => {
    parts.push(`<line x1="${left}" y1="${y(value)}" x2="${width - right}" y2="${y(value)}" class="${cls}"/>`);
    parts.push(`<text x="${width - right}" y="${y(value) - 3}" text-anchor="end" class="label ${cls}">${label} ${value}</text>`);
  };
  hline(chart.target, "line-target", t("target"));
  if (chart.line_800 !== null && chart.line_800 !== undefined) hline(chart.line_800, "line-800", t("line800"));
  if (chart.barrel !== null && chart.barrel !== undefined) hline(chart.barrel, "line-barrel", t("barrel"));
  parts.push(`<text x="${left - 4}" y="${y(0) + 4}" text-anchor="end" class="label">0</text>`);
  for (let i = 1; i <= deals; i++) {
    parts.push(`<text x="${x(i)}" y="${height - 8}" text-anchor="middle" class="label">${i}</text>`);
  }
  chart.series.forEach((series, seat) => {
    const colour = COLOURS[seat % COLOURS.length];
    const points = series.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    parts.push(`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2.5" class="player-line" data-seat="${seat}"/>`);
    series.forEach((v, i) => parts.push(`<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${colour}"/>`));
  });
  parts.push("</svg>");
  const legend = chart.names.map((name, seat) =>
    `<span class="legend-item"><span class="swatch" style="background:${COLOURS[seat % COLOURS.length]}"></span>${escapeHtml(name)}</span>`).join(" ");
  return `<div class="chart-box">${parts.join("")}<div class="legend">${legend}</div></div>`;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function tableEl(head, rows, cls) {
  return el("table", { class: cls || "scores" },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((row) => el("tr", {}, row.map((cell) => el("td", {}, cell))))));
}

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw data;
  return data;
}
