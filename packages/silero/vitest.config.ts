import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // The tests run the real model on the real runtime, on audio flite speaks.
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
})
