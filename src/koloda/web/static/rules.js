// A rules page (issue 31, docs/learn.md): the server renders the rules of one game in one language
// (koloda.rules); this script draws their card pictures with the table page's cardEl, keeps the page's
// language in step with the other pages' switch, and, opened from a table (?table=ID), marks beside each
// rule the table's agreements that change it (GET /api/rules/GAME?table=ID, said by the server in both
// languages), then goes to the rule the link names (#rule-N).
"use strict";

const PAGE = JSON.parse(document.getElementById("koloda-page-data").textContent);
const QUERY = new URLSearchParams(window.location.search);

// The address of this page in another language, the table and the rule kept.
function pageIn(language) {
  const query = new URLSearchParams(QUERY);
  query.set("lang", language);
  return `${window.location.pathname}?${query.toString()}${window.location.hash}`;
}

// One language a page: the address says it; an address without one follows the language last chosen.
if (QUERY.get("lang")) localStorage.setItem("koloda-lang", PAGE.lang);
if (lang() !== PAGE.lang) window.location.replace(pageIn(lang()));

// Card rows (```cards in the source): the text of the cards is replaced by their pictures.
function drawCards() {
  document.querySelectorAll(".rules-cards[data-cards]").forEach((box) => {
    box.replaceChildren(...box.dataset.cards.split(" ").filter(Boolean).map((card) => cardEl(card, "small")));
  });
}

// A table's agreements: each beside the rules it changes, and a line at the top that says whose they are.
async function markTable() {
  const table = QUERY.get("table");
  if (!table) return;
  let answer;
  try {
    answer = await api("GET", `/api/rules/${PAGE.game}?table=${encodeURIComponent(table)}`);
  } catch (error) {
    return;  // offline, or no such table: the rules as they are written
  }
  const marks = answer.marks[PAGE.lang] || [];
  const note = document.getElementById("table-note");
  note.textContent = marks.length ? t("web.rulesTableMarks", { id: table, count: marks.length }) : t("web.rulesTableDefaults", { id: table });
  note.classList.remove("hidden");
  for (const mark of marks) {
    for (const rule of mark.rules) {
      const at = document.getElementById(`rule-${rule}`);
      if (!at) continue;
      at.after(el("p", { class: "table-mark", dataset: { option: mark.option } },
        t("web.rulesMark", { label: mark.label, value: mark.value })));
    }
  }
  document.body.dataset.marks = String(marks.length);
}

function goToRule() {
  const target = window.location.hash ? document.getElementById(window.location.hash.slice(1)) : null;
  if (target) target.scrollIntoView();
}

langSwitch(() => window.location.assign(pageIn(lang())));
drawCards();
markTable().then(goToRule);
