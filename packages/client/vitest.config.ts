import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The browser tests share one Chromium and one server per file; they run one file at a time
    fileParallelism: false,
    testTimeout: 20000,
    hookTimeout: 60000,
  },
})
