import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // The tests drive the built package (its worker threads run dist/*.js): `pnpm build` first.
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One file at a time: each loads a speech model, and one test measures event-loop lag.
    fileParallelism: false,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
})
