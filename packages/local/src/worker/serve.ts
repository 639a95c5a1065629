import { parentPort, type TransferListItem } from 'node:worker_threads'

/** Worker side: announces `ready`, then hands each request to `handle` with a `reply` function. */
export function serve<Request, Response>(
  handle: (
    request: Request,
    reply: (response: Response, transfer?: TransferListItem[]) => void
  ) => void
): void {
  const port = parentPort
  if (!port) throw new Error('@openmic/local: this module runs only as a worker thread')
  const reply = (response: Response, transfer?: TransferListItem[]) =>
    port.postMessage(response, transfer)
  port.on('message', (request: Request) => handle(request, reply))
  port.postMessage({ type: 'ready' })
}
