import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One emulator suite (and one 2-core machine) is shared: files run one after another so that a
    // file's assertions about concurrency (e.g. mermaid's runaway-render test) are not skewed by
    // another file's load.
    fileParallelism: false,
    reporters: ["default"],
  },
});
