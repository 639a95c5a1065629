import { expect, it } from 'vitest'
import * as server from '../src/index.js'

it('exports only what applications use', () => {
  // Internals (the call's turn-taking, answer runs, the frame writer, push streams) stay private:
  // a change here is a change of the package's public surface.
  expect(Object.keys(server).sort()).toEqual([
    'MicdropError',
    'MicdropErrorCode',
    'MicdropRecorder',
    'MicdropServer',
    'handleError',
    'waitForParams',
  ])
})
