// Chooses the ports of one emulator suite (see ports.sh): firebase.json's, shifted by
// MCP_PORT_OFFSET; when any of those is taken (another `npm start`, test or bench on this
// machine), free ports the OS hands out instead, so tools run beside a running suite.
// Writes the firebase config with those ports and prints shell assignments for ports.sh.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { FRONT_PORT } from "../../functions/src/core/where.ts";

const [source, offsetText, root] = process.argv.slice(2);
const offset = Number(offsetText);
const config = JSON.parse(readFileSync(source, "utf8"));
const slots = []; // [emulator config object, key]
for (const e of Object.values(config.emulators)) {
  if (e && typeof e === "object") for (const key of ["port", "websocketPort"]) if (key in e) slots.push([e, key]);
}
// The front `npm start` serves the functions through (its port decided in core/where.ts).
const FRONT = FRONT_PORT;

const probe = (port) =>
  new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(undefined));
    s.listen(port, "127.0.0.1", () => {
      const got = s.address().port;
      s.close(() => resolve(got));
    });
  });

const wanted = [...slots.map(([e, k]) => e[k] + offset), FRONT + offset];
const taken = [];
for (const p of wanted) if ((await probe(p)) === undefined) taken.push(p);

let ports = wanted;
if (taken.length) {
  // Held open until all are chosen, so no two slots get the same port.
  const held = [];
  ports = [];
  for (let i = 0; i < wanted.length; i++) {
    const s = createServer();
    await new Promise((r) => s.listen(0, "127.0.0.1", r));
    held.push(s);
    ports.push(s.address().port);
  }
  await Promise.all(held.map((s) => new Promise((r) => s.close(r))));
  process.stderr.write(`\x1b[2m[setup]\x1b[0m ports ${taken.join(", ")} are taken (another emulator suite runs on this machine): this one uses free ports\n`);
}
slots.forEach(([e, k], i) => (e[k] = ports[i]));
const tag = taken.length ? `free-${process.ppid}` : String(offset);
// Configs of earlier suites on free ports whose script has ended.
for (const f of readdirSync(root)) {
  const pid = /^\.firebase\.ports-free-(\d+)\.json$/.exec(f)?.[1];
  if (!pid) continue;
  try {
    process.kill(Number(pid), 0);
  } catch {
    rmSync(`${root}/${f}`, { force: true });
  }
}
const file = `${root}/.firebase.ports-${tag}.json`;
writeFileSync(file, JSON.stringify(config, null, 2));
const host = (name) => `${config.emulators[name].host}:${config.emulators[name].port}`;
const out = {
  SUITE_CONFIG: file,
  SUITE_TAG: tag,
  FUNCTIONS_EMULATOR_HOST: host("functions"),
  MCP_FRONT_HOST: `127.0.0.1:${ports[ports.length - 1]}`,
  SUITE_AUTH_HOST: host("auth"),
  SUITE_FIRESTORE_HOST: host("firestore"),
  SUITE_STORAGE_HOST: host("storage"),
  SUITE_HUB_HOST: host("hub"),
};
for (const [k, v] of Object.entries(out)) console.log(`${k}=${JSON.stringify(v)}`);
