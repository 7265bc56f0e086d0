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
  document.documentElement.lang = lang();
}

function langSwitch(onChange) {
  const button = document.getElementById("lang");
  const show = () => { button.textContent = t("web.otherLang"); };
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
const RANK_KEYS = { J: "web.rank.J", Q: "web.rank.Q", K: "web.rank.K", A: "web.rank.A" };

// A rank as the page's language writes it (the catalog's web.rank.*).
function rankText(rank) {
  return RANK_KEYS[rank] ? t(RANK_KEYS[rank]) : rank;
}

function cardParts(text) {
  const suit = text.slice(-1);
  const rank = text.slice(0, -1);
  return { rank: rankText(rank), suit: SUITS[suit] || suit, red: suit === "H" || suit === "D" };
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

// An action's notation with suit symbols and the page's ranks ("KH+QH+JH+9H" -> "K♥ Q♥ J♥ 9♥").
function prettyAction(text) {
  return text.replace(/(10|[2-9JQKA])([SCDH])/g, (_, rank, suit) => rankText(rank) + SUITS[suit]).replace(/\+(?=\S)/g, " ").replace(/^draw$/, t("web.draw")).replace(/^pass$/, t("web.pass")).replace(/^bomb$/, t("web.bomb"));
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
  chart.series.forEach((series, seat) => {
    const colour = COLOURS[seat % COLOURS.length];
    const points = series.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    parts.push(`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2.5" class="player-line" data-seat="${seat}"/>`);
    series.forEach((v, i) => parts.push(`<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${colour}"/>`));
  });
  parts.push("</svg>");
  const legend = chart.names.map((name, seat) =>
    `<span class="legend-item"><span class="swatch seat-${seat % COLOURS.length}"></span>${escapeHtml(name)}</span>`).join(" ");
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
// any other (a page of another site cannot send that without asking first).
async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: method === "GET" ? {} : { "Content-Type": "application/json" },
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
// a list of choices, a box, a number, or a comma-separated list. `fill(values)` shows a preset's values;
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
    box.append(el("label", { class: "option" }, el("code", {}, row.name), " ", input));
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
