import type { RawData, WebSocket } from 'ws'
import { MicdropError, MicdropErrorCode } from '../errors/MicdropError.js'
import { holdFrames, markParamsRead } from './held-frames.js'

export interface WaitForParamsOptions {
  /** How long to wait for the params frame, in ms (default 3 000). */
  timeoutMs?: number
}

/**
 * Reads the call parameters: the first frame of the call, a JSON object in a text frame. `validate`
 * receives the parsed object and returns the params (a zod `parse` works) or throws.
 *
 * Rejects with a {@link MicdropError}: 4400 "Missing params" after `timeoutMs` (or if the socket
 * closes first), 4400 "Invalid params" when the frame is not JSON or `validate` throws (a
 * `MicdropError` thrown by `validate`, such as 4401, is kept). Pass it to `handleError`.
 *
 * Frames the client sends right behind the params are not lost: once the params frame is read, the
 * socket is paused and the frames already received are held on it; when the next `message`
 * listener is attached to the socket (`new MicdropServer(socket, ...)`, or the app's own handler),
 * they are emitted again, in order, and the socket resumes. So the app may take its time (check a
 * token, load a conversation) between `waitForParams` and the call. Nothing is kept anywhere but on
 * the socket, and a socket that never went through `waitForParams` is untouched.
 *
 * @example
 * const params = await waitForParams(socket, (p) => z.object({ token: z.string() }).parse(p))
 */
export function waitForParams<T>(
  socket: WebSocket,
  validate: (params: any) => T | Promise<T>,
  options: WaitForParamsOptions = {}
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer)
      socket.off('message', onMessage)
      socket.off('close', onClose)
    }
    const fail = (error: MicdropError) => {
      cleanup()
      reject(error)
    }
    const onClose = () => fail(new MicdropError(MicdropErrorCode.BadRequest, 'Missing params'))
    const onMessage = (data: RawData, isBinary: boolean) => {
      cleanup()
      markParamsRead(socket)
      holdFrames(socket)
      const invalid = new MicdropError(MicdropErrorCode.BadRequest, 'Invalid params')
      if (isBinary) return reject(invalid)
      let parsed: unknown
      try {
        parsed = JSON.parse(data.toString())
      } catch {
        return reject(invalid)
      }
      Promise.resolve()
        .then(() => validate(parsed))
        .then(resolve, (error: unknown) => reject(error instanceof MicdropError ? error : invalid))
    }
    const timer = setTimeout(
      () => fail(new MicdropError(MicdropErrorCode.BadRequest, 'Missing params')),
      options.timeoutMs ?? 3000
    )
    socket.on('message', onMessage)
    socket.on('close', onClose)
  })
}
