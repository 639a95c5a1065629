/**
 * AbortControllers made ahead of need. Creating one costs several microseconds on Node 20 (an
 * EventTarget is set up), and an answer needs two before its request can leave (the answer's and
 * its first model call's): they are taken from here, and the spares are made again once the
 * current I/O is done (`setImmediate`), off the path to the first token. Unused spares are plain
 * objects that hold nothing.
 */
const SPARES = 2
const spares: AbortController[] = []
let refilling = false

function refill() {
  refilling = false
  while (spares.length < SPARES) spares.push(new AbortController())
}

/** A fresh, never-aborted AbortController. */
export function takeAbortController(): AbortController {
  const controller = spares.pop() ?? new AbortController()
  if (!refilling) {
    refilling = true
    setImmediate(refill).unref()
  }
  return controller
}
