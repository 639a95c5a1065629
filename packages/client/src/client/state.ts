import type { MicdropState } from './types.js'

/** Whether two states show the same thing (`StateChange` is emitted only when they do not). */
export function sameState(a: MicdropState, b: MicdropState): boolean {
  for (const key of Object.keys(a) as Array<keyof MicdropState>) {
    if (a[key] !== b[key]) return false
  }
  return true
}
