// The Thousand score sheet: the server scores every deal (koloda.thousand) and keeps the sheet;
// this page enters deals, takes the last one back, exports, and draws the table and the chart.
// Offline first (docs/web.md, "Offline"): a deal is kept on the phone (offline.js) and scored at once by
// the browser's copy of the rules (rules-thousand.js, the same as the server's), then sent; the rows the
// server has not confirmed yet are marked so. After sending, the page shows the server's sheet, and says
// so where it differs from what the phone showed (another phone's deals came first).
"use strict";

const SHEET_ID = window.location.pathname.split("/")[2] || null;
const TARGET = `sheet/${SHEET_ID}`;
const RULES = KolodaRules.init(JSON.parse(document.getElementById("koloda-rules").textContent));
let server = null;   // the server's last sheet (kept on the phone)
let pending = [];    // the entries it has not confirmed, in order
let sheet = null;    // what is shown: the server's sheet with the pending deals scored after it
const RETRY_MS = 3000;  // a sending that found no answer is tried again after this long
let retry = null;
let notices = [];    // what the last sending changed, for the person to read
let FORM = null;     // the new-sheet form's options (common.js presetForm)
let KEY = null;      // the sheet's edit key, if this browser holds it (common.js editKey): else it only watches

async function showList() {
  document.getElementById("list-view").classList.remove("hidden");
  let sheets;
  try {
    sheets = await api("GET", "/api/sheets");
  } catch (e) {  // no network: the sheets kept on this phone, which open offline
    if (e.error !== "offline") throw e;
    document.getElementById("new-error").textContent = errorText(e);
    sheets = await Offline.keptAll("sheet/");
  }
  document.getElementById("sheets").replaceChildren(...sheets.map((s) =>
    el("li", {}, el("a", { href: `/sheet/${s.id}` }, `#${s.id}: ${s.players.join(", ")}`), el("span", { class: "muted" }, `${s.deals} ${t("web.deals")}`))));
}

// The new-sheet form (common.js presetForm) offers the options the scoring reads; what differs from the
// preset is sent.
async function createSheet(event) {
  event.preventDefault();
  try {
    const players = document.getElementById("names").value.split(",").map((n) => n.trim()).filter(Boolean);
    const made = await api("POST", "/api/sheets", {
      players, preset: document.getElementById("sheet-preset").value,
      options: FORM ? FORM.changes() : {},
    });
    keepKey(`sheet/${made.id}`, made.key);  // given once, to this browser
    window.location.href = `/sheet/${made.id}`;
  } catch (e) {
    document.getElementById("new-error").textContent = errorText(e);
  }
}

// The sheet of the server's source with the pending deals after it, scored by the browser's rules (a deal
// that no longer fits, after another phone's deals came first, is left for the server to refuse).
function localGame() {
  const game = RULES.thousand.loadSheet(server.source);
  const fits = pending.filter((entry) => {
    try {
      RULES.thousand.addLine(game, entry.body);
      return true;
    } catch (error) {
      if (error instanceof Error) throw error;
      return false;
    }
  });
  return { game, fits };
}

async function refresh() {
  pending = await Offline.pending(TARGET);
  const { game, fits } = localGame();
  sheet = RULES.thousand.sheetJson(server.id, game);
  sheet.unsent = fits.length;
  sheet.waiting = pending.length - fits.length;
  renderSheet();
  await renderEntries();
}

function renderSheet() {
  const table = sheet[lang()];
  document.getElementById("sheet-title").textContent = `${t("web.sheet")} #${sheet.id}: ${sheet.players.join(", ")}`;
  const tableBox = tableEl(table.head, table.rows);
  const rows = tableBox.querySelectorAll("tbody tr");
  for (let i = rows.length - sheet.unsent; i < rows.length; i += 1) {
    rows[i].classList.add("pending");
    rows[i].title = t("web.notSent");
  }
  document.getElementById("sheet-table").replaceChildren(tableBox);
  document.getElementById("sheet-status").textContent = table.status || "";
  document.getElementById("sheet-winner").textContent = table.winner || "";
  document.getElementById("sheet-chart").innerHTML = chartSvg(sheet.chart);
  document.getElementById("deal-panel").classList.toggle("hidden", sheet.over || !KEY);
  document.getElementById("undo").classList.toggle("hidden", !KEY);
  document.getElementById("undo").disabled = sheet.deals === 0 && !pending.length;
  for (const fmt of ["md", "csv", "jsonl"]) {
    document.getElementById(`export-${fmt}`).href = `/api/sheets/${sheet.id}/export/${fmt}?lang=${lang()}`;
  }
  document.body.dataset.deals = sheet.deals;
  document.body.dataset.unsent = pending.length;
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
  // The browser's rules judge it as the server will: a refused deal is said at once and kept nowhere.
  const { game } = localGame();
  try {
    RULES.thousand.addLine(game, deal);
  } catch (e) {
    if (e instanceof Error) throw e;
    error.textContent = errorText(e);
    return;
  }
  const shown = RULES.thousand.sheetJson(server.id, game);
  await Offline.add(TARGET, deal, { seq: shown.deals, row: shown.ru.rows[shown.deals - 1] });
  document.getElementById("deal").reset();
  document.getElementById("bid").value = "100";
  await refresh();
  await send();
}

// Send the pending deals; then show the server's sheet, with a word on each deal that the server numbered
// or scored otherwise than this phone showed, and on each it refused.
async function send() {
  if (!pending.length || !navigator.onLine) return;
  const done = await Offline.sync(TARGET, `/api/sheets/${SHEET_ID}/deals`, editHeaders(TARGET));
  for (const [entry, data] of done.sent) {
    server = data;
    const seq = data.entry.seq;
    const row = data.ru.rows[seq - 1];
    if (seq !== entry.shown.seq || JSON.stringify(row) !== JSON.stringify(entry.shown.row)) {
      notices.push({ key: "web.syncChanged", params: { was: entry.shown.seq, seq, row: data[lang()].rows[seq - 1].slice(1).join(" · ") } });
    }
  }
  await refresh();
  if (done.offline && !retry) retry = setTimeout(() => { retry = null; send(); }, RETRY_MS);  // lost: again
}

async function undo() {
  if (!(await confirmAction(() => t("web.confirmUndoDeal"), () => t("web.undoYes")))) return;
  const error = document.getElementById("deal-error");
  error.textContent = "";
  if (pending.length) {  // a deal not sent yet: taken back on the phone
    await Offline.drop(pending[pending.length - 1]);
    await refresh();
    return;
  }
  try {
    server = await api("POST", `/api/sheets/${SHEET_ID}/undo`, undefined, editHeaders(TARGET));
    await Offline.keep(TARGET, server);
    await refresh();
  } catch (e) {
    error.textContent = e.error === "offline" ? t("web.undoNeedsNetwork") : errorText(e);
  }
}

// What sending said: the deals it moved or scored otherwise, and those the server refused (kept until
// discarded, with what was entered, so nothing entered is lost).
async function renderEntries() {
  const refused = await Offline.refusedOf(TARGET);
  const box = document.getElementById("sync-notes");
  box.replaceChildren(
    ...notices.map((n) => el("li", { class: "changed" }, t(n.key, n.params))),
    ...refused.map((entry) => el("li", { class: "refused" },
      t("web.refusedEntry", { entry: JSON.stringify(entry.body), reason: errorText(entry.refusal) }), " ",
      el("button", { type: "button", class: "act", onclick: async () => { await Offline.discard(entry.key); await refresh(); } }, t("web.discard")))),
  );
  if (pending.length && navigator.onLine) box.append(el("li", { class: "muted" }, t("web.unsent", { count: pending.length })));
  else if (pending.length) box.append(el("li", { class: "muted" }, t("web.keptOffline", { count: pending.length })));
  document.body.dataset.refused = refused.length;
}

// The presets in the page's language.
function presetLabels() {
  document.querySelectorAll("#sheet-preset option").forEach((option) => { option.textContent = presetText(option.value); });
}

async function start() {
  presetLabels();
  langSwitch(() => { presetLabels(); if (sheet) refresh(); else showList(); });
  if (!SHEET_ID) {
    document.getElementById("new-sheet").addEventListener("submit", createSheet);
    try {
      FORM = await presetForm("/api/sheets/options", document.getElementById("sheet-preset"), document.getElementById("sheet-options"));
    } catch (e) {  // no network: a new sheet needs the server
      document.getElementById("new-error").textContent = errorText(e);
    }
    showList();
    return;
  }
  document.getElementById("sheet-view").classList.remove("hidden");
  KEY = editKey(TARGET);
  shareEditing(TARGET, KEY);
  document.getElementById("deal").addEventListener("submit", addDeal);
  document.getElementById("undo").addEventListener("click", undo);
  try {
    server = await api("GET", `/api/sheets/${SHEET_ID}`);
    await Offline.keep(TARGET, server);
  } catch (e) {
    server = e.error === "offline" ? await Offline.kept(TARGET) : null;
    if (!server) {
      document.getElementById("sheet-title").textContent = e.error === "offline" ? t("web.notKept") : errorText(e);
      return;
    }
  }
  await refresh();
  window.addEventListener("online", send);
  await send();
}

start();
