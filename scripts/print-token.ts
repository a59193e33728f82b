// `npm run token -- alice` prints a fresh Firebase ID token for a demo user (valid for one hour),
// for the Authorization header of an MCP client. Needs `npm start` running.
import { demoIdToken } from "./demo/auth.js";
import { DEMO_USERS } from "./demo/users.js";

const key = (process.argv[2] ?? "alice") as keyof typeof DEMO_USERS;
const user = DEMO_USERS[key];
if (!user) {
  console.error(`Unknown demo user "${key}". Choose one of: ${Object.keys(DEMO_USERS).join(", ")}`);
  process.exit(2);
}
try {
  console.log(await demoIdToken(user));
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
