// Puppeteer (a dev dependency of @mermaid-js/mermaid-cli, used only by bench/mermaid.ts) must not
// download its own Chrome on install: installs happen offline, and the bench uses Debian's
// Chromium (/usr/bin/chromium, or CHROMIUM_PATH).
module.exports = { skipDownload: true };
