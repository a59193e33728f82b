// Child process of the deploy check: loads one function the way its instance does on a cold
// start (lib/index.js, then the function's own lazily imported modules) and prints, as JSON, how
// long each part took and every module file it loaded. Usage: node cold-start-runner.mjs <lib/index.js> <lazy module>...
import { registerHooks } from "node:module";
import { pathToFileURL } from "node:url";

const loaded = [];
registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith("file:")) loaded.push(url);
    return nextLoad(url, context);
  },
});

const [entry, ...lazy] = process.argv.slice(2);
const t0 = performance.now();
await import(pathToFileURL(entry).href);
const t1 = performance.now();
const entryCount = loaded.length;
for (const m of lazy) await import(pathToFileURL(m).href);
const t2 = performance.now();
process.stdout.write(JSON.stringify({ entryMs: t1 - t0, lazyMs: t2 - t1, entryModules: entryCount, modules: loaded }));
process.exit(0);
