// The Thousand score sheet: the server scores every deal (koloda.thousand) and keeps the sheet;
// this page enters deals, takes the last one back, exports, and draws the table and the chart.
"use strict";

const SHEET_ID = window.location.pathname.split("/")[2] || null;
let sheet = null;

function parseOptions(text) {
  const options = {};
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const at = line.indexOf("=");
    if (at < 0) throw { message: `${line}: key=value` };
    const raw = line.slice(at + 1).trim();
    let value;
    try { value = JSON.parse(raw); } catch { value = raw; }
    options[line.slice(0, at).trim()] = value;
  }
  return options;
}

async function showList() {
  document.getElementById("list-view").classList.remove("hidden");
  const sheets = await api("GET", "/api/sheets");
  document.getElementById("sheets").replaceChildren(...sheets.map((s) =>
    el("li", {}, el("a", { href: `/sheet/${s.id}` }, `#${s.id}: ${s.players.join(", ")}`), el("span", { class: "muted" }, `${s.deals} ${t("web.deals")}`))));
}

async function createSheet(event) {
  event.preventDefault();
  try {
    const players = document.getElementById("names").value.split(",").map((n) => n.trim()).filter(Boolean);
    const made = await api("POST", "/api/sheets", {
      players, preset: document.getElementById("sheet-preset").value,
      options: parseOptions(document.getElementById("sheet-options").value),
    });
    window.location.href = `/sheet/${made.id}`;
  } catch (e) {
    document.getElementById("new-error").textContent = errorText(e);
  }
}

function renderSheet() {
  const table = sheet[lang()];
  document.getElementById("sheet-title").textContent = `${t("web.sheet")} #${sheet.id}: ${sheet.players.join(", ")}`;
  document.getElementById("sheet-table").replaceChildren(tableEl(table.head, table.rows));
  document.getElementById("sheet-status").textContent = table.status || "";
  document.getElementById("sheet-winner").textContent = table.winner || "";
  document.getElementById("sheet-chart").innerHTML = chartSvg(sheet.chart);
  document.getElementById("deal-panel").classList.toggle("hidden", sheet.over);
  document.getElementById("undo").disabled = sheet.deals === 0;
  for (const fmt of ["md", "csv", "jsonl"]) {
    document.getElementById(`export-${fmt}`).href = `/api/sheets/${sheet.id}/export/${fmt}?lang=${lang()}`;
  }
  document.body.dataset.deals = sheet.deals;
  const four = sheet.players.length === 4;
  document.getElementById("sitting-label").classList.toggle("hidden", !four);
  for (const id of ["declarer", "sitting"]) {
    const select = document.getElementById(id);
    const value = select.value;
    select.replaceChildren(...sheet.players.map((name) => el("option", { value: name }, name)));
    if (value) select.value = value;
  }
  const box = document.getElementById("seat-points");
  if (box.children.length !== sheet.players.length) {
    box.replaceChildren(...sheet.players.map((name, seat) => el("div", { class: "zone-light" },
      el("strong", {}, name),
      el("label", {}, `${t("web.points")} `, el("input", { type: "number", class: "points", min: "0", max: "120", dataset: { seat }, "aria-label": `${t("web.points")} ${name}` })),
      el("label", {}, `${t("web.marriage")} `, el("input", { type: "text", class: "marriages", size: "8", placeholder: "60, 100", dataset: { seat }, "aria-label": `${t("web.marriage")} ${name}` })))));
  }
}

async function addDeal(event) {
  event.preventDefault();
  const error = document.getElementById("deal-error");
  error.textContent = "";
  const deal = { declarer: document.getElementById("declarer").value, bid: Number(document.getElementById("bid").value) };
  if (sheet.players.length === 4) deal.sitting = document.getElementById("sitting").value;
  if (document.getElementById("bomb").checked) {
    deal.bomb = true;
  } else {
    deal.points = {};
    const marriages = {};
    sheet.players.forEach((name, seat) => {
      if (deal.sitting === name) return;
      const input = document.querySelector(`.points[data-seat="${seat}"]`);
      deal.points[name] = input.value === "" ? 0 : Number(input.value);
      const text = document.querySelector(`.marriages[data-seat="${seat}"]`).value.trim();
      if (text) marriages[name] = text.split(/[,\s]+/).filter(Boolean).map(Number);
    });
    if (Object.keys(marriages).length) deal.marriages = marriages;
  }
  try {
    sheet = await api("POST", `/api/sheets/${sheet.id}/deals`, deal);
    document.getElementById("deal").reset();
    document.getElementById("bid").value = "100";
    renderSheet();
  } catch (e) {
    error.textContent = errorText(e);
  }
}

async function undo() {
  if (!(await confirmAction(() => t("web.confirmUndoDeal"), () => t("web.undoYes")))) return;
  try {
    sheet = await api("POST", `/api/sheets/${sheet.id}/undo`);
    renderSheet();
  } catch (e) {
    document.getElementById("deal-error").textContent = errorText(e);
  }
}

// The presets in the page's language.
function presetLabels() {
  document.querySelectorAll("#sheet-preset option").forEach((option) => { option.textContent = presetText(option.value); });
}

async function start() {
  presetLabels();
  langSwitch(() => { presetLabels(); if (sheet) renderSheet(); else showList(); });
  if (!SHEET_ID) {
    document.getElementById("new-sheet").addEventListener("submit", createSheet);
    showList();
    return;
  }
  document.getElementById("sheet-view").classList.remove("hidden");
  document.getElementById("deal").addEventListener("submit", addDeal);
  document.getElementById("undo").addEventListener("click", undo);
  try {
    sheet = await api("GET", `/api/sheets/${SHEET_ID}`);
    renderSheet();
  } catch (e) {
    document.getElementById("sheet-title").textContent = errorText(e);
  }
}

start();
