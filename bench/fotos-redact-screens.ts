// The held-out screens of bench/fotos-redact.ts (the tests use other ones): five screens with
// planted items as people meet them, and three clean ones whose numbers are not PII. Rendered by
// Chromium at 1920×1080. Keys and tokens have their providers' shapes but are made up.
import { renderScreen, type Screen } from "../test/fotos/redact-render.js";

const p = (type: string, value: string) => `<span data-pii="${type}">${value}</span>`;

const billing = `
<style>
 body{font-family:"DejaVu Sans",sans-serif;background:#f3f4f6;color:#111827}
 .top{height:56px;background:#1d4ed8;color:#fff;font-size:20px;padding:16px 32px;box-sizing:border-box}
 .card{background:#fff;margin:32px auto;width:1100px;padding:32px 48px;border-radius:8px;box-shadow:0 1px 3px #0002}
 label{display:block;font-size:13px;color:#4b5563;margin-top:18px}
 .f{border:1px solid #d1d5db;border-radius:6px;padding:9px 12px;font-size:16px;margin-top:6px;width:460px}
 .row{display:flex;gap:40px}
 h2{margin:0 0 8px 0;font-size:24px}
</style>
<div class="top">Acme Checkout — Billing details</div>
<div class="card"><h2>Payment</h2>
 <div class="row"><div><label>Full name</label><div class="f">Eleanor Whitfield</div></div>
   <div><label>Email for receipts</label><div class="f">${p("email", "eleanor.whitfield@mailbox.co.uk")}</div></div></div>
 <div class="row"><div><label>Phone (UK)</label><div class="f">${p("phone", "020 7946 0958")}</div></div>
   <div><label>Mobile</label><div class="f">${p("phone", "+44 7700 900123")}</div></div></div>
 <div class="row"><div><label>Card number</label><div class="f">${p("credit_card", "4539 1488 0343 6467")}</div></div>
   <div><label>Expiry / CVC</label><div class="f">08/29 &nbsp; 123</div></div></div>
 <div class="row"><div><label>Backup card (Amex)</label><div class="f">${p("credit_card", "3782 822463 10005")}</div></div>
   <div><label>Tax ID (SSN)</label><div class="f">${p("ssn", "078-05-1120")}</div></div></div>
 <div class="row"><div><label>Billing address</label><div class="f">14 Harbour Street, Leith, Edinburgh EH6 6QU</div></div>
   <div><label>Order total</label><div class="f">£1,249.00 incl. VAT (20%)</div></div></div>
 <p style="font-size:13px;color:#6b7280;margin-top:28px">Questions? Call us on ${p("phone", "0131 496 0018")} between 9:00 and 17:30, Monday to Friday.</p>
</div>`;

const crmRows: [string, string, string, string][] = [
  ["Jonas Berger", "jonas.berger@berger-it.de", "+49 30 901820", "198.51.100.14"],
  ["Aiko Tanaka", "a.tanaka@example.jp", "+81 3-1234-5678", "203.0.113.77"],
  ["Marcus Hill", "mhill@hillandsons.com", "(212) 555-0198", "192.0.2.201"],
  ["Chloé Martin", "chloe.martin@orange.fr", "01 42 68 53 00", "2001:db8:4::2a"],
  ["Priya Nair", "priya.nair@infotech.in", "+91 98765 43210", "100.64.12.9"],
  ["Sam O'Neill", "sam.oneill@eircom.net", "+353 1 234 5678", "172.20.3.44"],
];
const crm = `
<style>
 body{font-family:"Liberation Sans",Arial,sans-serif;font-size:12px;background:#fff;color:#1f2937}
 .side{position:absolute;left:0;top:0;bottom:0;width:200px;background:#111827;color:#d1d5db;padding:16px;box-sizing:border-box;font-size:13px;line-height:28px}
 .main{position:absolute;left:200px;top:0;right:0;padding:20px 28px}
 table{border-collapse:collapse;width:1600px}
 th{background:#f9fafb;text-align:left;font-weight:bold;border-bottom:1px solid #e5e7eb;padding:6px 10px}
 td{border-bottom:1px solid #f3f4f6;padding:6px 10px}
</style>
<div class="side">Dashboard<br>Contacts<br>Deals<br>Reports<br>Settings</div>
<div class="main"><div style="font-size:18px;font-weight:bold;margin-bottom:14px">Contacts (6)</div>
<table><tr><th>Name</th><th>Email</th><th>Phone</th><th>Last login from</th><th>Deal value</th><th>Stage</th></tr>
${crmRows.map(([n, e, ph, ip], i) => `<tr><td>${n}</td><td>${p("email", e)}</td><td>${p("phone", ph)}</td><td>${p("ip_address", ip)}</td><td>€${(12400 + i * 3150).toLocaleString("en")}</td><td>${["Lead", "Qualified", "Proposal", "Won", "Lead", "Lost"][i]}</td></tr>`).join("")}
</table></div>`;

const editor = `
<style>
 body{background:#1e1e1e;color:#d4d4d4;font-family:"DejaVu Sans Mono",monospace;font-size:14px}
 .tabs{height:35px;background:#252526;color:#ccc;font-family:"DejaVu Sans";font-size:13px;padding:9px 16px;box-sizing:border-box}
 pre{margin:0;padding:12px 0 0 0;line-height:21px}
 .ln{color:#858585;display:inline-block;width:48px;text-align:right;margin-right:20px}
 .k{color:#569cd6}.s{color:#ce9178}.c{color:#6a9955}
</style>
<div class="tabs">config.ts — deploy-service</div>
<pre>${[
  `<span class="c">// deployment settings for the billing service</span>`,
  `<span class="k">export const</span> config = {`,
  `  region: <span class="s">"eu-west-1"</span>,`,
  `  awsAccessKeyId: <span class="s">"${p("api_key", "AKIA4HFJ2KD7QWX3MZP6")}"</span>,`,
  `  githubToken: <span class="s">"${p("api_key", "ghp_9fK2mQ7xLp4Rt8vZ1cB6nW3yH5jD0sA7eG2u")}"</span>,`,
  `  slackBot: <span class="s">"${p("api_key", "xoxb-2214567890-4312098765432-Qx7LmN2pR8tV5wZ1cB4dF6gH")}"</span>,`,
  `  stripeKey: <span class="s">"${p("api_key", "sk_live_51HqLyjWDarjtT1zdp7dcQx8vB2")}"</span>,`,
  `  openaiKey: <span class="s">"${p("api_key", "sk-proj-Xq3Lm9Rt7Vw2Bz5Nc8Kd4Hf6Jg1Pa0Es")}"</span>,`,
  `  session: <span class="s">"${p("api_key", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOjQyfQ.Hk3nV8qW2xZ5cR7tY1uB")}"</span>,`,
  `  database: <span class="s">"postgres://billing@${p("ip_address", "10.20.30.40")}:5432/prod"</span>,`,
  `  metrics: <span class="s">"http://[${p("ip_address", "fd00::7")}]:9090/push"</span>,`,
  `  retries: 3, timeoutMs: 2500, version: <span class="s">"4.12.0"</span>,`,
  `};`,
  ``,
  `<span class="k">const</span> key = <span class="s">\``,
  `${p("api_key", "-----BEGIN OPENSSH PRIVATE KEY-----")}`,
  `\`</span>;`,
]
  .map((l, i) => `<span class="ln">${i + 1}</span>${l}`)
  .join("\n")}</pre>`;

const envDump = `
<style>
 body{background:#0c0c0c;color:#cccccc;font-family:"DejaVu Sans Mono",monospace;font-size:15px}
 pre{margin:0;padding:0 0 0 0;line-height:22px}
 .p{color:#16c60c}
</style>
<pre><span class="p">deploy@build-07:~/shop$</span> cat .env.production
NODE_ENV=production
PORT=8080
DATABASE_URL=mysql://shop:${p("api_key", "Tr0ub4dor3xK9q")}@${p("ip_address", "172.16.4.20")}:3306/shop
REDIS_HOST=${p("ip_address", "::1")}
SENDGRID_API_KEY=${p("api_key", "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")}
GOOGLE_MAPS_KEY=${p("api_key", "AIzaSyB7xK2mQ9rT4vW8zC1nL5pD3fG6hJ0kS2a")}
SESSION_SECRET=${p("api_key", "f7Kq2Lx9Vb4Nz8Rm3Tc6Wp1Yh5Jd0Gs")}
ADMIN_EMAIL=${p("email", "ops-admin@shop-internal.net")}
SUPPORT_PHONE=${p("phone", "+1 646 555 0143")}
LOG_LEVEL=info
MAX_UPLOAD_MB=25
<span class="p">deploy@build-07:~/shop$</span> ssh admin@${p("ip_address", "203.0.113.45")} -p 2222
</pre>`;

const settings = `
<style>
 body{font-family:"DejaVu Sans",sans-serif;background:#fafafa;color:#202124;font-size:14px}
 .head{padding:18px 40px;font-size:22px;border-bottom:1px solid #dadce0;background:#fff}
 .sec{margin:24px 40px;background:#fff;border:1px solid #dadce0;border-radius:8px;width:1000px}
 .r{display:flex;padding:14px 20px;border-top:1px solid #f1f3f4}.r:first-child{border-top:0}
 .k{width:280px;color:#5f6368}
</style>
<div class="head">Account settings</div>
<div class="sec">
 <div class="r"><div class="k">Name</div><div>Rafael Costa</div></div>
 <div class="r"><div class="k">Primary email</div><div>${p("email", "rafael.costa@outlook.com")}</div></div>
 <div class="r"><div class="k">Recovery phone</div><div>${p("phone", "+55 11 98765-4321")}</div></div>
 <div class="r"><div class="k">Work phone</div><div>${p("phone", "(646) 555-0177")}</div></div>
 <div class="r"><div class="k">Social security number</div><div>${p("ssn", "219-09-9999")}</div></div>
</div>
<div class="sec">
 <div class="r"><div class="k">Personal access token</div><div>${p("api_key", "glpat-Zx8Qw3Er6Ty9Ui2Op5As")}</div></div>
 <div class="r"><div class="k">Trusted address</div><div>${p("ip_address", "2001:db8:85a3::8a2e:370:7334")}</div></div>
 <div class="r"><div class="k">Last sign-in</div><div>from ${p("ip_address", "81.2.69.160")} on 2026-11-20 at 08:14</div></div>
 <div class="r"><div class="k">Storage used</div><div>12.4 GB of 15 GB (82%)</div></div>
 <div class="r"><div class="k">Plan</div><div>Business Standard, renews 2027-01-01</div></div>
</div>`;

const cleanCode = `
<style>body{background:#fff;color:#24292f;font-family:"DejaVu Sans Mono",monospace;font-size:14px}pre{margin:0;padding:16px 24px;line-height:21px}</style>
<pre>import { createHash } from "node:crypto";
import type { OrderSummary, LineItem } from "./types.js";

/** Totals an order: net, tax at the given rate, and the rounded gross amount. */
export function totalOrder(items: LineItem[], taxRate = 0.2): OrderSummary {
  const net = items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
  const tax = Math.round(net * taxRate * 100) / 100;
  return { net, tax, gross: net + tax, currency: "EUR", version: "2.14.3" };
}

export const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000];
export const MAX_ITEMS_PER_ORDER = 1500;
export const cacheKey = (id: string) => createHash("sha256").update(id).digest("hex").slice(0, 16);
// commit 3f9a2c1e8b7d, build 20261115.4, see issue #4821
const color = { primary: "#1d4ed8", muted: "#6b7280", success: "#16a34a" };
const server = app.listen(8080, () => console.log("listening on port 8080"));
</pre>`;

const cleanProse = `
<style>body{background:#fff;color:#222;font-family:"DejaVu Serif",serif;font-size:17px}div{width:1100px;margin:40px 80px;line-height:1.6}</style>
<div><h1 style="font-size:30px">The harbour in winter</h1>
<p>By the winter of 1887 the harbour handled more than 4,200 ships a year, twice the number of a decade before. The new breakwater, 1,350 metres long, was finished in 1891 at a cost of £212,000.</p>
<p>Records from the port office list 37 vessels lost between 1880 and 1895, most of them in the storms of January and February. Chapter 12 describes the rescue of the crew of the Margaret Ann on 14 February 1889.</p>
<p>Today the old customs house at number 24 holds a small museum, open daily from 10:00 to 16:30, with a ticket price of 6.50 for adults. The collection has 1,142 objects and 86 photographs.</p></div>`;

const cleanDashboard = `
<style>body{background:#0f172a;color:#e2e8f0;font-family:"DejaVu Sans",sans-serif}.g{display:flex;flex-wrap:wrap;gap:24px;padding:32px}
.t{background:#1e293b;border-radius:10px;padding:20px 24px;width:400px}.v{font-size:34px;font-weight:bold;margin-top:6px}.l{color:#94a3b8;font-size:14px}</style>
<div style="padding:24px 32px 0 32px;font-size:24px">Operations overview — week 47</div>
<div class="g">
 <div class="t"><div class="l">Visitors</div><div class="v">128,430</div><div class="l">+12.4% vs. last week</div></div>
 <div class="t"><div class="l">Revenue</div><div class="v">$1,284,990.00</div><div class="l">Target $1,200,000</div></div>
 <div class="t"><div class="l">Uptime</div><div class="v">99.982%</div><div class="l">2 incidents, 14 min total</div></div>
 <div class="t"><div class="l">p95 latency</div><div class="v">245 ms</div><div class="l">p50 61 ms, p99 890 ms</div></div>
 <div class="t"><div class="l">Orders</div><div class="v">18,204</div><div class="l">Largest order #1004823</div></div>
 <div class="t"><div class="l">Deploys</div><div class="v">37</div><div class="l">Latest v5.18.2 on 2026-11-19 16:42</div></div>
 <div class="t"><div class="l">Queue depth</div><div class="v">1,024</div><div class="l">Workers 16 / 32</div></div>
 <div class="t"><div class="l">Storage</div><div class="v">4.75 TB</div><div class="l">of 12 TB (39.6%)</div></div>
</div>`;

export async function benchScreens(): Promise<{ planted: Screen[]; clean: Screen[] }> {
  return {
    planted: [
      await renderScreen("billing form", billing),
      await renderScreen("CRM table, 12 px", crm),
      await renderScreen("editor with secrets (dark)", editor),
      await renderScreen("dark .env dump", envDump),
      await renderScreen("light settings page", settings),
    ],
    clean: [await renderScreen("code", cleanCode), await renderScreen("prose", cleanProse), await renderScreen("dashboard (dark)", cleanDashboard)],
  };
}
