// `npm run test:unit`: the logic tier, no Java and no emulator. These files touch no emulator, so
// they run in parallel; `npm test` runs them too, with the rest.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ["test/unit/no-emulator.ts"],
    reporters: ["default"],
  },
});
