// Shared by every page: the two languages, cards drawn in CSS, the score chart in SVG, the JSON API.
"use strict";

// The words of the page in both languages, from the server's translation catalog: the page embeds them
// (koloda.web.app), so no word is written here.
const WORDS = JSON.parse(document.getElementById("koloda-words").textContent);

function lang() {
  const stored = localStorage.getItem("koloda-lang");
  return stored === "en" || stored === "ru" ? stored : "ru";
}

// The catalog's text of `key` in the page's language, its {name} parameters filled from `params`.
function t(key, params) {
  const text = (WORDS[lang()] || WORDS.ru)[key];
  if (text === undefined) return key;
  return text.replace(/\{\{|\}\}|\{(\w+)\}/g, (match, name) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    return params && name in params ? String(params[name]) : match;
  });
}

const LEVEL_KEYS = { easy: "web.easy", medium: "web.medium", hard: "web.hard" };

// A bot level's name in the page's language.
function levelText(level) {
  return LEVEL_KEYS[level] ? t(LEVEL_KEYS[level]) : level;
}

// A refusal of the server ({"error" or "code", "field", "message", "message_ru"}) or a failed fetch.
function errorText(error) {
  return lang() === "ru" && error.message_ru ? error.message_ru : error.message;
}

function applyWords(root) {
  (root || document).querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  (root || document).querySelectorAll("[data-i18n-placeholder]").forEach((el) => {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  });
  (root || document).querySelectorAll("[data-i18n-label]").forEach((el) => {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  });
  document.documentElement.lang = lang();
}

// The language switch: the other language's name, in that language.
function langSwitch(onChange) {
  const button = document.getElementById("lang");
  const show = () => {
    button.textContent = t("web.otherLang");
    button.lang = lang() === "ru" ? "en" : "ru";
  };
  show();
  button.addEventListener("click", () => {
    localStorage.setItem("koloda-lang", lang() === "ru" ? "en" : "ru");
    show();
    applyWords();
    document.querySelectorAll("dialog.confirm").forEach((dialog) => dialog.refresh());
    if (onChange) onChange();
  });
  applyWords();
}

// Ask before something that cannot be taken back (an undo): a modal dialog with the question, the
// destructive choice and a way out (Escape or the catalog's web.keep). `question` and `yes` are functions
// giving the words, so that the dialog follows the language switch. Resolves to true when confirmed.
function confirmAction(question, yes) {
  return new Promise((resolve) => {
    const dialog = el("dialog", { class: "confirm", "aria-labelledby": "confirm-question" },
      el("p", { id: "confirm-question" }),
      el("div", { class: "row" },
        el("button", { class: "secondary", type: "button", id: "confirm-no" }),
        el("button", { class: "danger", type: "button", id: "confirm-yes" })));
    dialog.refresh = () => {
      dialog.querySelector("#confirm-question").textContent = question();
      dialog.querySelector("#confirm-no").textContent = t("web.keep");
      dialog.querySelector("#confirm-yes").textContent = yes();
    };
    dialog.refresh();
    const done = (answer) => { dialog.close(); dialog.remove(); resolve(answer); };
    dialog.querySelector("#confirm-yes").addEventListener("click", () => done(true));
    dialog.querySelector("#confirm-no").addEventListener("click", () => done(false));
    dialog.addEventListener("cancel", (e) => { e.preventDefault(); done(false); });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("#confirm-no").focus();
  });
}

// A seat's name: the server's default for an unnamed seat ("Bot 3" in seat 3) in the page's language.
function seatName(name, seat) {
  const found = /^(Bot|Player) (\d+)$/.exec(name);
  if (!found || Number(found[2]) !== seat + 1) return name;
  return `${t(found[1] === "Bot" ? "web.bot" : "web.playerWord")} ${found[2]}`;
}

// A preset's name in the page's language.
const PRESET_KEYS = {
  default: "web.preset.default", "no-trumps": "web.preset.no-trumps", "one-trump": "web.preset.one-trump",
  "two-trumps": "web.preset.two-trumps", "senior-junior": "web.preset.senior-junior", literal: "web.preset.literal",
  strict: "web.preset.strict", "fine-31": "web.preset.fine-31", "no-penalty": "web.preset.no-penalty",
  home: "web.preset.home", tournament: "web.preset.tournament", russian: "web.preset.russian",
  moscow: "web.preset.moscow", chelyabinsk: "web.preset.chelyabinsk",
  "moscow-stick-in-hand": "web.preset.moscow-stick-in-hand", cards: "web.preset.cards",
};

function presetText(name) {
  return PRESET_KEYS[name] ? t(PRESET_KEYS[name]) : name;
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
const RANK_KEYS = { J: "web.rank.J", Q: "web.rank.Q", K: "web.rank.K", A: "web.rank.A" };
const RANK_NAMES = {
  6: "web.rankName.6", 7: "web.rankName.7", 8: "web.rankName.8", 9: "web.rankName.9", 10: "web.rankName.10",
  J: "web.rankName.J", Q: "web.rankName.Q", K: "web.rankName.K", A: "web.rankName.A",
};
const SUIT_NAMES = { S: "web.suitName.S", C: "web.suitName.C", D: "web.suitName.D", H: "web.suitName.H" };

// A rank as the page's language writes it (the catalog's web.rank.*).
function rankText(rank) {
  return RANK_KEYS[rank] ? t(RANK_KEYS[rank]) : rank;
}

function cardParts(text) {
  const suit = text.slice(-1);
  const rank = text.slice(0, -1);
  return { rank: rankText(rank), suit: SUITS[suit] || suit, red: suit === "H" || suit === "D" };
}

// A card in words, for a screen reader and a tooltip: "ten of hearts" (the catalog's web.cardName).
function cardName(text) {
  const suit = text.slice(-1);
  const rank = text.slice(0, -1);
  if (!RANK_NAMES[rank] || !SUIT_NAMES[suit]) return text;
  return t("web.cardName", { rank: t(RANK_NAMES[rank]), suit: t(SUIT_NAMES[suit]) });
}

// One card, drawn by the page: its face is as wide as a card whatever room the card is given, so that in a
// fanned hand each card shows its left strip, where the index (the rank over the suit) is; the big suit
// sits at the lower right. There is no upside-down corner: it was unreadable at a phone's size.
function cardEl(text, extra) {
  const { rank, suit, red } = cardParts(text);
  const node = el("div", { class: `card${red ? " red" : ""}${extra ? " " + extra : ""}`, role: "img",
    "aria-label": cardName(text), title: cardName(text) },
  el("span", { class: "face", "aria-hidden": "true" },
    el("span", { class: "idx" }, el("span", { class: "rank" }, rank), el("span", { class: "suit" }, suit)),
    el("span", { class: "pip" }, suit)));
  node.dataset.card = text;
  return node;
}

function cardBack(extra) {
  return el("div", { class: `card back${extra ? " " + extra : ""}`, "aria-hidden": "true" }, el("span", { class: "face" }));
}

// An action's notation with suit symbols and the page's ranks ("KH+QH+JH+9H" -> "K♥ Q♥ J♥ 9♥").
function prettyAction(text) {
  return text.replace(/(10|[2-9JQKA])([SCDH])/g, (_, rank, suit) => rankText(rank) + SUITS[suit]).replace(/\+(?=\S)/g, " ").replace(/^draw$/, t("web.draw")).replace(/^pass$/, t("web.pass")).replace(/^bomb$/, t("web.bomb"));
}

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
const DASHES = ["none", "7 3", "2 3", "9 3 2 3"];

// A player's mark on the chart: a circle, a square, a triangle, a diamond.
function mark(seat, cx, cy, colour) {
  const x = Number(cx), y = Number(cy);
  const shape = seat % 4;
  if (shape === 0) return `<circle cx="${cx}" cy="${cy}" r="3.5" fill="${colour}"/>`;
  if (shape === 1) return `<rect x="${x - 3.5}" y="${y - 3.5}" width="7" height="7" fill="${colour}"/>`;
  if (shape === 2) return `<polygon points="${x},${y - 4.5} ${x + 4},${y + 3} ${x - 4},${y + 3}" fill="${colour}"/>`;
  return `<polygon points="${x},${y - 4.5} ${x + 4.5},${y} ${x},${y + 4.5} ${x - 4.5},${y}" fill="${colour}"/>`;
}

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
  const parts = [`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${t("web.chart")}" xmlns="http://www.w3.org/2000/svg">`];
  parts.push(`<line x1="${left}" y1="${y(0)}" x2="${width - right}" y2="${y(0)}" class="axis"/>`);
  parts.push(`<line x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}" class="axis"/>`);
  const hline = (value, cls, label) => {
    parts.push(`<line x1="${left}" y1="${y(value)}" x2="${width - right}" y2="${y(value)}" class="${cls}"/>`);
    parts.push(`<text x="${width - right}" y="${y(value) - 3}" text-anchor="end" class="label ${cls}">${label} ${value}</text>`);
  };
  hline(chart.target, "line-target", t("web.target"));
  if (chart.line_800 !== null && chart.line_800 !== undefined) hline(chart.line_800, "line-800", t("web.line800"));
  if (chart.barrel !== null && chart.barrel !== undefined) hline(chart.barrel, "line-barrel", t("web.barrel"));
  parts.push(`<text x="${left - 4}" y="${y(0) + 4}" text-anchor="end" class="label">0</text>`);
  for (let i = 1; i <= deals; i++) {
    parts.push(`<text x="${x(i)}" y="${height - 8}" text-anchor="middle" class="label">${i}</text>`);
  }
  // Tied totals would draw one line over another: each player's line is moved a little up or down
  // (3 px a player) and has its own dashes and marks, so that every line stays in sight.
  const count = chart.series.length;
  chart.series.forEach((series, seat) => {
    const colour = COLOURS[seat % COLOURS.length];
    const shift = (seat - (count - 1) / 2) * 3;
    const py = (v) => (y(v) + shift).toFixed(1);
    const points = series.map((v, i) => `${x(i).toFixed(1)},${py(v)}`).join(" ");
    parts.push(`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2.5" stroke-dasharray="${DASHES[seat % DASHES.length]}" class="player-line" data-seat="${seat}"/>`);
    series.forEach((v, i) => parts.push(mark(seat, x(i).toFixed(1), py(v), colour)));
  });
  parts.push("</svg>");
  const legend = chart.names.map((name, seat) =>
    `<span class="legend-item"><svg class="swatch seat-${seat % COLOURS.length}" viewBox="-6 -6 12 12" aria-hidden="true">${mark(seat, "0", "0", "currentColor")}</svg>${escapeHtml(name)}</span>`).join(" ");
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

// Every request that changes something says its body is JSON, even an empty one: the server refuses
// any other (a page of another site cannot send that without asking first). `headers`: more of them (an
// edit key).
async function api(method, path, body, headers) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: Object.assign(method === "GET" ? {} : { "Content-Type": "application/json" }, headers || {}),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {  // no network: a refusal of its own, said in the page's language
    throw { error: "offline", message: t("web.offlineError") };
  }
  const data = await response.json();
  if (!response.ok) throw data;
  return data;
}

// A form with one control per option of a game (its `schema` from the server: koloda.options.Options.schema):
// a list of choices, a box, a number, or a comma-separated list, each under its label in the page's language
// with its rule and, smaller, the key the API and the terminal take, and its help below it (the catalog's
// words, marked data-i18n so that the language switch redraws them). `fill(values)` shows a preset's values;
// `changes()` gives the options that differ from them, as the API takes them.
function optionsForm(box, schema) {
  let shown = {};
  const controls = schema.map((row) => {
    let input;
    if (row.kind === "choice") {
      input = el("select", {}, row.choices.map((choice) => el("option", { value: JSON.stringify(choice) }, String(choice))));
    } else if (row.kind === "bool") {
      input = el("input", { type: "checkbox" });
    } else if (row.kind === "int" || row.kind === "float") {
      input = el("input", { type: "number", step: row.kind === "int" ? "1" : "any", inputmode: "decimal" });
    } else {
      input = el("input", { type: "text", size: "28", autocapitalize: "none" });
    }
    input.dataset.option = row.name;
    const name = row.label
      ? [el("span", { dataset: { i18n: row.label } }, t(row.label)), " ", el("span", { class: "rule" }, `§ ${row.rule}`), " ", el("code", {}, row.name)]
      : [el("code", {}, row.name)];
    const help = row.help ? el("small", { class: "help", dataset: { i18n: row.help } }, t(row.help)) : null;
    box.append(el("div", { class: "option" }, el("label", {}, el("span", {}, ...name), input), help));
    return { row, input };
  });
  const read = ({ row, input }) => {
    if (row.kind === "choice") return JSON.parse(input.value);
    if (row.kind === "bool") return input.checked;
    if (row.kind === "int" || row.kind === "float") return input.value === "" ? null : Number(input.value);
    if (row.kind === "list") {
      const items = input.value.split(",").map((item) => item.trim()).filter(Boolean);
      return row.item.kind === "int" || row.item.kind === "float" ? items.map(Number) : items;
    }
    return input.value === "" && row.nullable ? null : input.value;
  };
  const write = ({ row, input }, value) => {
    if (row.kind === "choice") input.value = JSON.stringify(value);
    else if (row.kind === "bool") input.checked = Boolean(value);
    else if (row.kind === "list") input.value = (value || []).join(", ");
    else input.value = value === null || value === undefined ? "" : String(value);
  };
  return {
    fill(values) {
      shown = values;
      controls.forEach((control) => write(control, values[control.row.name]));
    },
    changes() {
      const out = {};
      for (const control of controls) {
        const value = read(control);
        if (JSON.stringify(value) !== JSON.stringify(shown[control.row.name])) out[control.row.name] = value;
      }
      return out;
    },
  };
}

// A new-game form from an options endpoint (GET …/options: presets, preset_values, schema): the presets in
// `preset`, a control for each option in `box` (optionsForm) showing the chosen preset's values, and the
// #start button on once the form is whole (it stays off without the network: a new game needs the
// server). Returns the optionsForm.
async function presetForm(url, preset, box) {
  const offer = await api("GET", url);
  preset.replaceChildren(...offer.presets.map((name) => el("option", { value: name }, presetText(name))));
  const form = optionsForm(box, offer.schema);
  form.fill(offer.preset_values[preset.value]);
  preset.addEventListener("change", () => form.fill(offer.preset_values[preset.value]));
  document.getElementById("start").disabled = false;
  return form;
}

// Edit keys (docs/web.md, "Edit keys"): a score sheet or a banki game is changed only by a browser that holds
// its key, which the server gives once, to the browser that creates it. The key is kept in localStorage by
// target ("sheet/3"); an edit link (/sheet/3#key=...) brings it to another browser: the part after "#" is
// never sent to the server, and the page takes it out of the address once kept. Every change sends it in
// the header EDIT_HEADER.
const EDIT_HEADER = "Koloda-Edit-Key";

function keepKey(target, key) {
  localStorage.setItem(`koloda-key:${target}`, key);
}

// The key this browser holds for `target` (the one in the address first, kept), or null. An edit link
// opened in a tab that shows the page already changes only the address's "#" part, which loads nothing:
// the page keeps that key and loads again.
function editKey(target) {
  const fromAddress = () => {
    const found = /(?:^#|&)key=([A-Za-z0-9_-]{1,64})(?:&|$)/.exec(window.location.hash);
    if (!found) return false;
    keepKey(target, found[1]);
    history.replaceState(null, "", window.location.pathname + window.location.search);
    return true;
  };
  fromAddress();
  window.addEventListener("hashchange", () => { if (fromAddress()) window.location.reload(); });
  return localStorage.getItem(`koloda-key:${target}`);
}

// The headers of a change of `target` (its key), for api() and Offline.sync.
function editHeaders(target) {
  const key = localStorage.getItem(`koloda-key:${target}`);
  return key ? { [EDIT_HEADER]: key } : {};
}

// The share box of a page that holds the key: a button shows the edit link to copy (anyone who has it can
// change the sheet or game, so it is shown only when asked for); without the key, a notice that the page
// is only watching.
function shareEditing(target, key) {
  document.getElementById("view-only").classList.toggle("hidden", Boolean(key));
  document.getElementById("share").classList.toggle("hidden", !key);
  if (!key) return;
  const box = document.getElementById("share-box");
  const field = document.getElementById("share-link");
  document.getElementById("share-button").onclick = () => {
    field.value = `${window.location.origin}/${target}#key=${key}`;
    box.classList.toggle("hidden");
    field.focus();
    field.select();
  };
}
