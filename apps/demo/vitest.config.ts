import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // The end-to-end test runs Chromium, pocketsphinx and flite in real time: on a 2-core machine
    // it must not share the CPU with the other test files.
    fileParallelism: false,
  },
})
