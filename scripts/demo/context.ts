// What every domain's demo seeder receives (scripts/demo/<domain>.ts exports `seed(ctx)`).
import type { Auth } from "firebase-admin/auth";
import type { Firestore } from "firebase-admin/firestore";
import type { DemoUsers } from "./users.js";

export interface DemoContext {
  db: Firestore;
  auth: Auth;
  users: DemoUsers;
  /** One line of progress for the person running `npm start`. */
  log(message: string): void;
}
