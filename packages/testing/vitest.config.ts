import { defineConfig } from 'vitest/config'
import { DELIBERATE_REJECTION } from './test/simulator/deliberate-rejection.js'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // test/simulator/catches-bugs.test.ts leaves one rejection unhandled on purpose.
    onUnhandledError: (error) => !String(error?.message).includes(DELIBERATE_REJECTION),
  },
})
