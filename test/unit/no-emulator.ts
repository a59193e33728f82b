// The logic tier runs without emulators: a test here that reaches for Firestore is in the wrong
// tier, and says so at once instead of waiting on a server that is not there.
import { vi } from "vitest";

const WRONG_TIER = "test/unit runs without emulators: a test that reads or writes Firestore belongs in test/fast (the Firestore emulator) or an end-to-end folder";
const refusing = () =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error(WRONG_TIER);
      },
    },
  );

vi.mock("../../functions/src/platform/firebase.js", async (original) => {
  const real = await original<typeof import("../../functions/src/platform/firebase.js")>();
  return { ...real, firestore: refusing, adminApp: refusing };
});
