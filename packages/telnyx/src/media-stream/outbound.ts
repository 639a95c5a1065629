import type { MediaStreamCommand } from '@openmic/server'

/** A command of the line as Telnyx reads it on a bidirectional (RTP) stream. */
export function writeTelnyxMessage(command: MediaStreamCommand): string {
  switch (command.event) {
    case 'media':
      return JSON.stringify({ event: 'media', media: { payload: command.payload } })
    case 'mark':
      return JSON.stringify({ event: 'mark', mark: { name: command.name } })
    case 'clear':
      return JSON.stringify({ event: 'clear' })
  }
}
