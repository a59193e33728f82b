// The demo accounts `npm start` creates in the Auth emulator. Each domain's demo data belongs
// to these users; `npm run token -- alice` prints an ID token for one of them.
export interface DemoUser {
  key: string;
  uid: string;
  email: string;
  password: string;
  displayName: string;
  claims?: Record<string, unknown>;
}

export const DEMO_PASSWORD = "demo-password";

export const DEMO_USERS = {
  alice: { key: "alice", uid: "demo-alice", email: "alice@example.com", password: DEMO_PASSWORD, displayName: "Alice Example" },
  bob: { key: "bob", uid: "demo-bob", email: "bob@example.com", password: DEMO_PASSWORD, displayName: "Bob Example" },
  carol: {
    key: "carol",
    uid: "demo-dr-carol",
    email: "carol@example.com",
    password: DEMO_PASSWORD,
    displayName: "Dr. Carol Example",
    claims: { clinician: true },
  },
  dave: { key: "dave", uid: "demo-dave", email: "dave@example.com", password: DEMO_PASSWORD, displayName: "Dave Example" },
} satisfies Record<string, DemoUser>;

export type DemoUsers = typeof DEMO_USERS;
