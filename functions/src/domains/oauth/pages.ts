// The authorization server's pages: plain HTML forms with inline styles, no scripts (but the home page's import), nothing
// loaded from outside the function (the CSP set in http/serve-route.ts enforces it).
import type { HttpReply } from "../../http/route.js";

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d2433}
  main{max-width:440px;margin:8vh auto;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:32px}
  h1{font-size:22px;margin:0 0 8px}p{margin:8px 0}.muted{color:#5b6478;font-size:14px}
  label{display:block;margin:14px 0 4px;font-weight:600;font-size:14px}
  input[type=email],input[type=password],input[type=text]{width:100%;padding:10px 12px;border:1px solid #c8cdd8;border-radius:8px;font-size:16px}
  .code{font:600 28px/1.2 ui-monospace,Menlo,monospace;letter-spacing:3px;text-align:center;padding:12px;background:#f0f3fa;border-radius:8px}
  button{margin-top:18px;padding:10px 18px;border:0;border-radius:8px;font-size:16px;font-weight:600;cursor:pointer}
  .primary{background:#1a56db;color:#fff}.secondary{background:#e7eaf0;color:#1d2433}.danger{background:#c81e1e;color:#fff;margin:0;padding:6px 12px;font-size:14px}
  .row{display:flex;gap:10px}.ok{background:#e6f4ea;color:#1e5631;padding:10px 12px;border-radius:8px}h2{font-size:18px;margin:24px 0 8px}select{padding:8px;border-radius:8px;border:1px solid #c8cdd8}.error{background:#fdecec;color:#9b1c1c;padding:10px 12px;border-radius:8px}
  ul.scopes{padding-left:20px}table{width:100%;border-collapse:collapse;font-size:14px}td,th{text-align:left;padding:8px 4px;border-bottom:1px solid #eef0f4;vertical-align:top}
  .wide{max-width:720px}.drop{border:2px dashed #c8cdd8;border-radius:8px;padding:8px 12px}.drop.over{border-color:#1a56db}`;

export function page(title: string, body: string, { status = 200, wide = false, headers = {} }: { status?: number; wide?: boolean; headers?: Record<string, string> } = {}): HttpReply {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main${wide ? ' class="wide"' : ""}>${body}</main></body></html>`;
  return { status, html, headers };
}

export const hidden = (fields: Record<string, string>): string =>
  Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");

export function errorPage(title: string, message: string, status = 400): HttpReply {
  return page(title, `<h1>${escapeHtml(title)}</h1><p class="error">${escapeHtml(message)}</p>`, { status });
}

export function signInPage(opts: { action: string; next: string; csrf: string; setCookie?: string; error?: string; status?: number; email?: string; purpose: string; emailLink: boolean; google: boolean }): HttpReply {
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : "";
  const google = opts.google
    ? `<form method="post" action="${escapeHtml(opts.action)}/google">${hidden({ next: opts.next, csrf: opts.csrf })}<button class="secondary" type="submit">Sign in with Google</button></form>`
    : "";
  const link = opts.emailLink
    ? `<form method="post" action="${escapeHtml(opts.action)}/email-link">${hidden({ next: opts.next, csrf: opts.csrf })}
<label for="link-email">Or get a sign-in link by email</label><input id="link-email" name="email" type="email" autocomplete="email" required>
<button class="secondary" type="submit">Email me a link</button></form>`
    : "";
  return page(
    "Sign in",
    `<h1>Sign in</h1><p class="muted">${escapeHtml(opts.purpose)}</p>${error}
<form method="post" action="${escapeHtml(opts.action)}">${hidden({ next: opts.next, csrf: opts.csrf })}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" value="${escapeHtml(opts.email ?? "")}" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button class="primary" type="submit">Sign in</button></form>${google}${link}
<p class="muted">After signing in, <a href="home">your home page</a> has your settings, knowledge base and connected apps.</p>`,
    { status: opts.status ?? (opts.error ? 401 : 200), headers: opts.setCookie ? { "set-cookie": opts.setCookie } : {} },
  );
}
