import { itKeepsEveryInvariant } from './random-calls.js'

// One file per client: vitest runs them in parallel.
itKeepsEveryInvariant('openmic')
