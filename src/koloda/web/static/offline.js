// Offline first (docs/web.md, "Offline"): every page registers the service worker (sw.js, which keeps the
// pages' shell) and says when the phone has no network. The score sheet and the banki referee keep here, in
// IndexedDB, the last sheet or game the server sent and every entry made since that the server has not
// confirmed; each entry has its own key (the Idempotency-Key header), so that sending it again, after an
// answer lost on the way, stores it once. Entries are sent in the order they were made, one at a time,
// by one tab at a time (Web Locks), when the network is back.
"use strict";

const Offline = (() => {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});

  // -- the notice ------------------------------------------------------------------------------------------

  function showNotice() {
    let box = document.getElementById("offline-notice");
    if (!box) {
      box = el("p", { id: "offline-notice", class: "notice hidden", role: "status" });
      const header = document.querySelector("header");
      if (header) header.after(box); else document.body.prepend(box);
    }
    box.textContent = t("web.offlineNotice");
    box.classList.toggle("hidden", navigator.onLine);
    document.body.dataset.online = navigator.onLine ? "1" : "0";
  }
  window.addEventListener("online", showNotice);
  window.addEventListener("offline", showNotice);
  document.addEventListener("DOMContentLoaded", showNotice);
  if (document.readyState !== "loading") showNotice();

  // -- IndexedDB ---------------------------------------------------------------------------------------------

  // Three stores: `kept` (the server's last answer for a target such as "sheet/3"), `pending` (entries not
  // yet confirmed, in the order made: n), `refused` (entries the server refused when they were sent: kept
  // for the person to see until discarded).
  let opened = null;
  function db() {
    if (!opened) {
      opened = new Promise((resolve, reject) => {
        const request = indexedDB.open("koloda-offline", 1);
        request.onupgradeneeded = () => {
          const base = request.result;
          base.createObjectStore("kept", { keyPath: "target" });
          base.createObjectStore("pending", { keyPath: "n", autoIncrement: true }).createIndex("target", "target");
          base.createObjectStore("refused", { keyPath: "key" }).createIndex("target", "target");
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    }
    return opened;
  }

  async function run(stores, mode, work) {
    const base = await db();
    return new Promise((resolve, reject) => {
      const tx = base.transaction(stores, mode);
      let result;
      Promise.resolve(work(tx)).then((value) => { result = value; });
      tx.oncomplete = () => resolve(result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  }

  const request = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });

  const kept = (target) => run(["kept"], "readonly", (tx) => request(tx.objectStore("kept").get(target)).then((row) => (row ? row.data : null)));
  // What is kept of every target that starts with `prefix` (the lists of sheets and games, offline).
  const keptAll = (prefix) => run(["kept"], "readonly", (tx) => request(tx.objectStore("kept").getAll()))
    .then((rows) => rows.filter((row) => row.target.startsWith(prefix)).map((row) => row.data).sort((a, b) => b.id - a.id));
  const keep = (target, data) => run(["kept"], "readwrite", (tx) => { tx.objectStore("kept").put({ target, data }); });
  const byTarget = (store, target) => run([store], "readonly", (tx) => request(tx.objectStore(store).index("target").getAll(target)))
    .then((rows) => rows.sort((a, b) => (a.n || a.at) - (b.n || b.at)));

  // A new entry: its body, and what the page showed after it (compared with the server's answer later).
  function add(target, body, shown) {
    const entry = { target, key: crypto.randomUUID(), body, shown, at: Date.now() };
    return run(["pending"], "readwrite", (tx) => { tx.objectStore("pending").add(entry); }).then(() => entry);
  }
  const drop = (entry) => run(["pending"], "readwrite", (tx) => { tx.objectStore("pending").delete(entry.n); });
  const discard = (key) => run(["refused"], "readwrite", (tx) => { tx.objectStore("refused").delete(key); });

  // An answer to an entry arrived: the entry leaves `pending` and the answer is kept, in one transaction.
  function confirmed(entry, data) {
    return run(["pending", "kept"], "readwrite", (tx) => {
      tx.objectStore("pending").delete(entry.n);
      tx.objectStore("kept").put({ target: entry.target, data });
    });
  }

  function refused(entry, refusal) {
    return run(["pending", "refused"], "readwrite", (tx) => {
      tx.objectStore("pending").delete(entry.n);
      tx.objectStore("refused").put(Object.assign({}, entry, { refusal }));
    });
  }

  // -- sending -----------------------------------------------------------------------------------------------

  // The answers that refuse the entry itself (a bad one, not this sheet's edit key, a sheet or game gone, no
  // longer fitting, too big); any other (too many requests, the database unavailable: 503, the server's own
  // trouble) leaves it to be sent again.
  const ENTRY_FAULTS = [400, 403, 404, 409, 413];

  // Send `target`'s pending entries, in order, each to url (POST, JSON, its idempotency key, and `headers`:
  // the edit key, on every retry too); stop at the first that finds no network. Each answer: `onAnswer(entry,
  // data)` with the server's page after it, or the refusal in `refused`. Returns {sent: [[entry, data]...],
  // refused: [[entry, refusal]...], offline}.
  async function sync(target, url, headers) {
    const work = async () => {
      const out = { sent: [], refused: [], offline: false };
      for (const entry of await byTarget("pending", target)) {
        let response;
        try {
          response = await fetch(url, {
            method: "POST",
            headers: Object.assign({ "Content-Type": "application/json", "Idempotency-Key": entry.key }, headers || {}),
            body: JSON.stringify(entry.body),
          });
        } catch (error) {
          out.offline = true;
          break;
        }
        let data = null;
        try { data = await response.json(); } catch (error) { data = null; }
        if (response.ok && data) {
          await confirmed(entry, data);
          out.sent.push([entry, data]);
        } else if (ENTRY_FAULTS.includes(response.status) && data && data.error) {
          await refused(entry, data);
          out.refused.push([entry, data]);
        } else {
          out.offline = true;  // the server's own trouble: kept, sent again later
          break;
        }
      }
      return out;
    };
    if (navigator.locks) return navigator.locks.request(`koloda-sync-${target}`, work);
    return work();
  }

  return { kept, keptAll, keep, pending: (target) => byTarget("pending", target), refusedOf: (target) => byTarget("refused", target), add, drop, discard, sync };
})();
