import { defineConfig } from 'vitest/config'

// Runs the suites against broken classes; started by conformance-catches-bugs.test.ts only.
export default defineConfig({
  test: { root: import.meta.dirname, include: ['broken-speech.suite.ts'] },
})
