import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One emulator suite is shared; test files talk to it in parallel.
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ["default"],
  },
});
