import { expect, test } from "vitest";
test("emulator env", () => {
  expect(process.env.FIRESTORE_EMULATOR_HOST).toBeTruthy();
});
