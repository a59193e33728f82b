// `npm run test:unit`: the logic tier, no Java and no emulator. These files touch no emulator, so
// they run in parallel; `npm test` runs them too, with the rest.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ["test/unit/no-emulator.ts"],
    // vitest's default on two cores is one file at a time; a file that mostly waits (deadlines
    // against a stalled server) then holds up the rest. These files share nothing, so three at once.
    maxWorkers: 3,
    reporters: ["default"],
  },
});
