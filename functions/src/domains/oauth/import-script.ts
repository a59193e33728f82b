// The home page's one script (served same-origin at /home/import.js; the page's CSP allows only
// it): the person drops files or a folder, each file's text is sent to /home/imports, then the
// page asks /home/imports/next to import one queued file at a time and shows each outcome. A tab
// closed midway loses nothing: the scheduled drain finishes the queue, the reopened page shows it.
import { MAX_IMPORT_REQUEST_BYTES } from "../../contracts/knowledge-import.js";

export const IMPORT_SCRIPT = `"use strict";
(() => {
  const section = document.getElementById("import");
  if (!section) return;
  const base = section.dataset.base, csrf = section.dataset.csrf, MAX = ${MAX_IMPORT_REQUEST_BYTES};
  const table = document.getElementById("imports"), body = table.querySelector("tbody"), status = document.getElementById("import-status");
  const rows = new Map();
  const post = (path, fields) => fetch(base + path, { method: "POST", credentials: "same-origin", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrf, ...fields }) });
  const outcome = (i) => {
    const docs = i.documents || [];
    const chunks = docs.reduce((n, d) => n + d.chunks, 0);
    if (i.status === "imported") return "imported: " + docs.length + " document(s), " + chunks + " chunk(s)";
    if (i.status === "unchanged") return "unchanged: " + docs.length + " document(s) already up to date";
    if (i.status === "skipped" || i.status === "failed") return i.status + ": " + (i.detail || "");
    return i.status === "processing" ? "importing…" : "queued" + (i.detail ? " (" + i.detail + ")" : "");
  };
  function show(i) {
    let tr = rows.get(i.id);
    if (!tr) {
      tr = document.createElement("tr");
      tr.dataset.id = i.id;
      tr.append(document.createElement("td"), document.createElement("td"));
      body.prepend(tr);
      rows.set(i.id, tr);
    }
    tr.dataset.status = i.status;
    tr.cells[0].textContent = i.path;
    tr.cells[1].textContent = outcome(i);
    table.hidden = false;
  }
  let pumping = false;
  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      for (;;) {
        status.textContent = "Importing in the background; you may close this page.";
        const r = await post("/home/imports/next", {});
        if (!r.ok) { status.textContent = "The import paused: the server answered " + r.status + ". Reload the page to go on."; return; }
        const { item } = await r.json();
        if (!item) break;
        show(item);
        if (item.status === "queued") { status.textContent = "The import paused: " + (item.detail || "try again later") + ". Reload the page to go on."; return; }
      }
      // Files another worker (the scheduled drain) is importing: shown once it is done.
      const { items } = await (await fetch(base + "/home/imports", { credentials: "same-origin" })).json();
      for (const i of [...items].reverse()) if (rows.has(i.id)) show(i);
      if (items.some((i) => i.status === "processing")) { setTimeout(() => void pump(), 3000); return; }
      status.textContent = "Done.";
    } finally { pumping = false; }
  }
  async function send(files) {
    for (const { file, path } of files) {
      const local = { id: "local-" + path, path, status: "queued", documents: [] };
      if (file.size > MAX) { show({ ...local, status: "skipped", detail: "larger than " + MAX / 1024 / 1024 + " MiB; split it" }); continue; }
      status.textContent = "Sending " + path + "…";
      const r = await post("/home/imports", { path, content: await file.text() });
      const answer = await r.json().catch(() => ({}));
      if (!r.ok) { show({ ...local, status: "failed", detail: answer.error || "the server answered " + r.status }); continue; }
      show(answer.item);
    }
    await pump();
  }
  const pathOf = (f) => f.webkitRelativePath || f.name;
  for (const input of section.querySelectorAll("input[type=file]"))
    input.addEventListener("change", () => { void send([...input.files].map((file) => ({ file, path: pathOf(file) }))); input.value = ""; });
  // A dropped folder: its files, walked through the entries API, with their paths inside it.
  async function walk(entry, out) {
    if (entry.isFile) { out.push({ file: await new Promise((ok, no) => entry.file(ok, no)), path: entry.fullPath.replace(/^\\//, "") }); return; }
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((ok, no) => reader.readEntries(ok, no));
      if (!batch.length) return;
      for (const e of batch) await walk(e, out);
    }
  }
  const zone = document.getElementById("import-drop");
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", async (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    const entries = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
    const files = [];
    if (entries.length) for (const en of entries) await walk(en, files);
    else for (const file of e.dataTransfer.files) files.push({ file, path: file.name });
    await send(files);
  });
  fetch(base + "/home/imports", { credentials: "same-origin" }).then((r) => r.json()).then(({ items }) => {
    for (const i of [...items].reverse()) show(i);
    if (items.some((i) => i.status === "queued" || i.status === "processing")) void pump();
    section.dataset.ready = "true";
  });
})();
`;
