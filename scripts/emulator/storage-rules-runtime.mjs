// Stand-in for the Cloud Storage rules runtime (a Java jar firebase-tools downloads), speaking its
// JSON-lines protocol on stdin/stdout. It loads any ruleset and denies every client request, which
// is exactly what this project's storage.rules says (deny all; the Admin SDK bypasses rules).
import { createInterface } from "node:readline";

const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");
send({ id: -1, status: "ok" });

createInterface({ input: process.stdin }).on("line", (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return;
  }
  if (req.action === "load_ruleset") {
    send({ id: req.id, status: "ok", result: { rulesVersion: 2 }, errors: [], warnings: [] });
  } else if (req.action === "verify") {
    send({ id: req.id, status: "ok", result: { permit: false }, errors: [], warnings: [] });
  } else {
    send({ id: req.id, status: "ok", result: {}, errors: [], warnings: [] });
  }
});
