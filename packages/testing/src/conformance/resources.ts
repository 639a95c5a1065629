/**
 * Resource types that never belong to a speech client: a listening server is the test's fake
 * provider (started inside `make()`, closed by `teardown()`).
 */
const SERVER_RESOURCES = ['TCPServerWrap', 'PipeServerWrap']

/** The resources keeping the event loop alive (ref'd timers, sockets, requests), counted by type. */
export function activeResources(): Map<string, number> {
  const counts = new Map<string, number>()
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1)
  return counts
}

/**
 * Waits until there are no more resources of any type than in `baseline` (those created since
 * have been released), up to `timeoutMs`. Returns what is still in excess, e.g. `['Timeout ×1']`
 * (empty when everything was released). Types in `ignore` and listening servers are not counted.
 */
export async function resourcesLeftOver(
  baseline: Map<string, number>,
  timeoutMs: number,
  ignore: readonly string[]
): Promise<string[]> {
  const skipped = new Set([...SERVER_RESOURCES, ...ignore])
  const excess = () => {
    const left: string[] = []
    for (const [type, count] of activeResources()) {
      const extra = count - (baseline.get(type) ?? 0)
      if (extra > 0 && !skipped.has(type)) left.push(`${type} ×${extra}`)
    }
    return left
  }
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const left = excess()
    if (left.length === 0 || Date.now() >= deadline) return left
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
