// The person's home page (HTML; its one script, same-origin, runs the import: import-script.ts): their connected apps, their
// Fotos settings with each default and what it does, and the documents of their knowledge base.
import type { DocumentView, ReadwiseView, SettingFieldView } from "../../http/person.js";
import type { HttpReply } from "../../http/route.js";
import { escapeHtml, hidden, page } from "./pages.js";
import { FRESH_SIGN_IN_SECONDS } from "./session.js";

/** The outcome of the last form, by a fixed code (no text from the query is ever shown). */
export const NOTICES = {
  saved: "Your Fotos settings were saved. Your AI apps use them from their next call on.",
  deleted: "The document was deleted from your knowledge base.",
  gone: "That document was already gone.",
  "readwise-saved": "Your Readwise token was saved. Your highlights arrive with the next sync.",
  "readwise-removed": "Your Readwise token was removed; nothing syncs any more.",
} as const;
export type Notice = keyof typeof NOTICES;

const shown = (v: string | number | boolean) => (typeof v === "boolean" ? (v ? "yes" : "no") : String(v));

function settingInput(f: SettingFieldView): string {
  const id = `s-${f.path.replace(/\./g, "-")}`;
  const name = escapeHtml(f.path);
  const options = (values: readonly string[], labels: readonly string[] = values) =>
    values.map((v, i) => `<option value="${escapeHtml(v)}"${String(f.value) === v ? " selected" : ""}>${escapeHtml(labels[i]!)}</option>`).join("");
  const input =
    typeof f.default === "boolean"
      ? `<select id="${id}" name="${name}">${options(["true", "false"], ["yes", "no"])}</select>`
      : f.choices
        ? `<select id="${id}" name="${name}">${options(f.choices)}</select>`
        : `<input id="${id}" name="${name}" type="${typeof f.default === "number" ? "number" : "text"}" value="${escapeHtml(String(f.value))}" required>`;
  return `<tr><td><label for="${id}">${escapeHtml(f.path)}</label><span class="muted">${escapeHtml(f.does)} Default: <b>${escapeHtml(shown(f.default))}</b>.</span></td><td>${input}</td></tr>`;
}

export function erasedPage(e: { documents: number; screenshots: number; figmaRooms: number; records: number; account: boolean }): HttpReply {
  return page(
    "Everything deleted",
    `<h1>Everything deleted</h1><p role="status">Deleted ${e.documents} knowledge document(s), ${e.screenshots} screenshot(s), ${e.figmaRooms} Figma room(s) and ${e.records} app, device and sign-in record(s)${e.account ? ", and your sign-in account" : ""}. Every app and device you had connected is disconnected.</p>
<p class="muted">Your DermalVision records were not touched: they are the DermalVision app's.</p>`,
  );
}

// The import's script is the only one any page runs: this page's CSP allows it and its requests, same-origin.
const HOME_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'";

function importSection(base: string, csrf: string): string {
  const b = escapeHtml(base);
  return `<div id="import" data-base="${b}" data-csrf="${escapeHtml(csrf)}"><p class="muted">Markdown and text notes, a Kindle <i>My Clippings.txt</i>, a Readwise CSV export: drop files or a folder here, or choose them. They are imported in the background; you may close this page, and importing the same files again changes nothing.</p>
<div id="import-drop" class="drop"><label for="import-folder">Choose a folder</label><input id="import-folder" type="file" webkitdirectory multiple>
<label for="import-files">or files</label><input id="import-files" type="file" multiple accept=".md,.markdown,.txt,.text,.csv"></div>
<noscript><p class="muted">Importing from this page needs JavaScript.</p></noscript>
<p id="import-status" role="status" aria-live="polite"></p><table id="imports" hidden><thead><tr><th>File</th><th>Outcome</th></tr></thead><tbody></tbody></table></div>
<script src="${b}/home/import.js" defer></script>`;
}

function readwiseSection(base: string, csrf: string, r: ReadwiseView, synced?: string): string {
  const b = escapeHtml(base);
  if (!r.connected)
    return `<form method="post" action="${b}/home/readwise" id="readwise">${hidden({ csrf })}<p class="muted">Paste your Readwise access token (from readwise.io/access_token) once: your new and changed highlights then arrive every few hours. It is kept where only this service can read it, and never shown again.</p>
<label for="readwise-token">Readwise access token</label><input id="readwise-token" name="token" type="password" autocomplete="off" required><button class="primary" type="submit">Save token</button></form>`;
  const status = [r.savedAt && `Token saved ${escapeHtml(r.savedAt.slice(0, 10))}.`, r.lastSync ? `Last sync ${escapeHtml(r.lastSync.slice(0, 16).replace("T", " "))} UTC: ${escapeHtml(r.lastResult ?? "")}.` : "Not synced yet."].filter(Boolean).join(" ");
  return `<p id="readwise-status">${synced ? `<span role="status">${escapeHtml(synced)}</span> ` : ""}${status}</p><div class="row">
<form method="post" action="${b}/home/readwise/sync">${hidden({ csrf })}<button class="primary" type="submit">Sync now</button></form>
<form method="post" action="${b}/home/readwise/remove">${hidden({ csrf })}<button class="secondary" type="submit">Remove token</button></form></div>`;
}

// Links and forms name their full path: the page is also shown at /home/settings or /home/erase after a refused form.
export function homePage(p: { base: string; email: string; csrf: string; fresh: boolean; apps: number; settings: SettingFieldView[]; documents: DocumentView[]; readwise: ReadwiseView; connect: string; synced?: string; notice?: Notice; error?: string }): HttpReply {
  const notice = p.notice ? `<p class="ok" role="status">${escapeHtml(NOTICES[p.notice])}</p>` : "";
  const error = p.error ? `<p class="error" role="alert">${escapeHtml(p.error)}</p>` : "";
  const documents = p.documents.length
    ? `<table id="documents"><thead><tr><th>Document</th><th>Source</th><th>Chunks</th><th>Changed</th><th></th></tr></thead><tbody>${p.documents
        .map(
          (d) => `<tr><td><b>${escapeHtml(d.title)}</b>${d.author ? `<br><span class="muted">${escapeHtml(d.author)}</span>` : ""}</td><td>${escapeHtml(d.source)}</td><td>${d.chunks}</td><td>${escapeHtml(d.updated.slice(0, 10))}</td>
<td><form method="post" action="${escapeHtml(p.base)}/home/documents/delete">${hidden({ id: d.id, csrf: p.csrf })}<button class="danger" type="submit" aria-label="Delete ${escapeHtml(d.title)}">Delete</button></form></td></tr>`,
        )
        .join("")}</tbody></table>`
    : `<p class="muted">Your knowledge base is empty. An AI app you allowed to save to it can keep notes there (save_note).</p>`;
  return page(
    "Your home",
    `<h1>Your home</h1><p class="muted">Signed in as <b>${escapeHtml(p.email)}</b>.</p>${notice}${error}
<h2>Connected apps and devices</h2><p>${p.apps === 0 ? "No apps or devices are connected." : `${p.apps} app${p.apps === 1 ? "" : "s"} and device${p.apps === 1 ? "" : "s"} connected.`} <a href="${escapeHtml(p.base)}/apps">See and revoke them</a>.</p>
<h2>Connect an AI app</h2>${p.connect}
<h2>Fotos settings</h2><p class="muted">What your AI apps and the desktop agent use when a call does not say otherwise.</p>
<form method="post" action="${escapeHtml(p.base)}/home/settings" id="settings">${hidden({ csrf: p.csrf })}<table><tbody>${p.settings.map(settingInput).join("")}</tbody></table>
<button class="primary" type="submit">Save settings</button></form>
<h2>Knowledge base</h2>${documents}
<h3>Import</h3>${importSection(p.base, p.csrf)}
<h3>Readwise</h3>${readwiseSection(p.base, p.csrf, p.readwise, p.synced)}
<h2>Your data</h2><p><a href="${escapeHtml(p.base)}/home/export" download>Download everything</a> this suite keeps for you as one file: your knowledge base as Markdown with front matter, your screenshots with their metadata, your settings, apps and devices.</p>
<form method="post" action="${escapeHtml(p.base)}/home/erase" id="erase">${hidden({ csrf: p.csrf })}<p><b>Delete everything</b>: your knowledge base, screenshots and their images, Figma rooms, settings, connected apps and devices. This cannot be undone.</p>
<label for="erase-password">Your password, to confirm</label><input id="erase-password" name="password" type="password" autocomplete="current-password">
${
  p.fresh
    ? `<p class="muted" id="erase-fresh">You signed in less than ${FRESH_SIGN_IN_SECONDS / 60} minutes ago: that confirms it, no password needed.</p>`
    : `<p class="muted">No password (you sign in with Google or an email link)? <button class="secondary" type="submit" form="erase-reauth">Sign in again</button> then come back here within ${FRESH_SIGN_IN_SECONDS / 60} minutes.</p>`
}
<label><input type="checkbox" name="account" value="delete"> Also delete my sign-in account</label>
<button class="danger" type="submit">Delete everything</button></form>
<form method="post" action="${escapeHtml(p.base)}/home/erase/sign-in-again" id="erase-reauth">${hidden({ csrf: p.csrf })}</form>
<p class="muted">Your DermalVision profile, sessions and reports are kept by the DermalVision app, which writes them into this project; they are that app's records, and this page does not export, change or delete them.</p>
<form method="post" action="${escapeHtml(p.base)}/signout">${hidden({ csrf: p.csrf })}<button class="secondary" type="submit">Sign out</button></form>`,
    { wide: true, headers: { "content-security-policy": HOME_CSP } },
  );
}
