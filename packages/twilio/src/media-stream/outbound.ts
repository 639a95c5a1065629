import type { MediaStreamCommand } from '@openmic/server'

/** A command of the line as Twilio reads it on the stream `streamSid`. */
export function writeTwilioMessage(command: MediaStreamCommand, streamSid: string): string {
  switch (command.event) {
    case 'media':
      return JSON.stringify({ event: 'media', streamSid, media: { payload: command.payload } })
    case 'mark':
      return JSON.stringify({ event: 'mark', streamSid, mark: { name: command.name } })
    case 'clear':
      return JSON.stringify({ event: 'clear', streamSid })
  }
}
