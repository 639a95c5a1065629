import {
  MICDROP_AUDIO_FORMAT,
  errorBodyMessage,
  readRefusedUpgrade,
  type ProviderConnectionEvents,
  type RefusedUpgrade,
} from '@openmic/core/provider'
import type { STTManualFinalizeWebsocketResponse } from '@cartesia/cartesia-js/resources/stt/manual-finalize/manual-finalize'
import type { ManualFinalizeWS } from '@cartesia/cartesia-js/resources/stt/manual-finalize/ws'
import type { Cartesia } from '../cartesia-sdk.js'
import { inBandError } from '../in-band-error.js'
import { CartesiaSTTError } from './errors.js'
import { DEFAULT_CARTESIA_STT_MODEL, type CartesiaSTTOptions } from './options.js'

/** What a {@link CartesiaSTTConnection} reports to its owner. */
export interface CartesiaSTTConnectionEvents extends ProviderConnectionEvents<CartesiaSTTError> {
  /** A `transcript`: `text` is a delta from the last final one. */
  onTranscript(text: string, isFinal: boolean): void
  /** `flush_done`: what came before the last `finalize` is transcribed. */
  onFlushDone(): void
  /** An in-band `error` message. */
  onError(error: CartesiaSTTError): void
}

/** How to open a {@link CartesiaSTTConnection}: the SDK client it goes through, and the session's settings. */
export interface CartesiaSTTConnectionOptions extends CartesiaSTTOptions {
  client: Cartesia
  connectionTimeoutMs: number
}

/**
 * One session of Cartesia's realtime transcription with manual finalize (the connection of a
 * CartesiaSTT), through the official
 * SDK's `stt.manualFinalize.websocket()` (key in the `Authorization` header, audio as binary
 * frames, `finalize` as a text frame). The SDK's own reconnection is off: a session that closes
 * is dropped, and the owner opens a new one for new audio, so nothing is sent twice. Audio given
 * while the socket opens waits in the SDK's queue; if the socket dies first it is dropped.
 */
export class CartesiaSTTConnection {
  private readonly ws: ManualFinalizeWS
  private closed = false
  private everOpened = false
  private readonly timer: ReturnType<typeof setTimeout>

  constructor(
    options: CartesiaSTTConnectionOptions,
    private readonly events: CartesiaSTTConnectionEvents
  ) {
    this.ws = options.client.stt.manualFinalize.websocket(
      {
        model: options.model ?? DEFAULT_CARTESIA_STT_MODEL,
        encoding: 'pcm_s16le',
        sample_rate: MICDROP_AUDIO_FORMAT.sampleRate,
        ...(options.language ? { language: options.language as 'en' } : {}),
        ...(options.keyterms?.length ? { keyterm: options.keyterms } : {}),
      },
      { reconnect: null }
    )
    this.timer = setTimeout(
      () =>
        this.end(
          new CartesiaSTTError(`no connection after ${options.connectionTimeoutMs} ms (timeout)`)
        ),
      options.connectionTimeoutMs
    )
    const socket = this.ws.socket as unknown as {
      on(event: string, listener: (...args: any[]) => void): void
      platformSocket?: import('ws').WebSocket
    }
    if (socket.platformSocket) guardMessages(socket.platformSocket, events.log)
    socket.on('open', () => {
      clearTimeout(this.timer)
      this.everOpened = true
    })
    // The SDK reports a refused upgrade as "Unexpected server response: 401"; the answer's body
    // says why (a wrong key...).
    socket.platformSocket?.on('unexpected-response', (_req: unknown, res: RefusedUpgrade) =>
      readRefusedUpgrade(res, ({ status, statusMessage, body }) => {
        const message = errorBodyMessage(body) || statusMessage || 'connection refused'
        this.end(new CartesiaSTTError(`${status} ${message}`, { status }))
      })
    )
    this.ws.on('event', (event) => this.receive(event))
    this.ws.on('raw', (data) =>
      this.events.log('Ignored a message that is not JSON:', String(data).slice(0, 200))
    )
    this.ws.on('error', (error) => {
      // In-band errors come through 'event' too; only errors of the connection end it here.
      if (error.error) return
      this.end(new CartesiaSTTError(`connection error: ${error.message}`, { cause: error }))
    })
    this.ws.on('close', (code, reason) =>
      this.end(
        new CartesiaSTTError(`connection closed (code ${code}${reason ? ` ${reason}` : ''})`, {
          closeCode: code,
        })
      )
    )
  }

  /** True once the connection opened, even after it is gone. */
  get wasReady(): boolean {
    return this.everOpened
  }

  /** True once the session is gone (or going). */
  get isOver(): boolean {
    return this.closed
  }

  /** Sends audio now, or as soon as the socket is open. */
  sendAudio(audio: Buffer): void {
    if (!this.closed) this.ws.sendRaw(audio)
  }

  /** Ends the utterance (`finalize`): Cartesia transcribes what it holds, then says `flush_done`. */
  sendEnd(): void {
    if (!this.closed) this.ws.send('finalize')
  }

  /** Closes the session (a clean close, or a cut while it is still opening). */
  dispose(): void {
    if (this.closed) return
    this.closed = true
    clearTimeout(this.timer)
    this.ws.close()
  }

  private receive(event: STTManualFinalizeWebsocketResponse): void {
    if (this.closed) return
    switch (event?.type) {
      case 'transcript':
        if (typeof event.text === 'string') this.events.onTranscript(event.text, !!event.is_final)
        return
      case 'flush_done':
        return this.events.onFlushDone()
      case 'error':
        return this.events.onError(
          inBandError(event, (message, details) => new CartesiaSTTError(message, details))
        )
      default:
        // `done` answers `close`, which openmic does not send; anything else is unknown.
        return
    }
  }

  private end(error: CartesiaSTTError): void {
    if (this.closed) return
    this.closed = true
    clearTimeout(this.timer)
    this.ws.close()
    this.events.onClosed(error)
  }
}

/**
 * The SDK's message handler reads `type` from whatever JSON arrives, so a server message `null`
 * would throw out of the socket's event and crash the process: its handlers are wrapped so that
 * such a message is logged and dropped.
 */
function guardMessages(socket: import('ws').WebSocket, log: (...message: unknown[]) => void) {
  for (const listener of socket.listeners('message') as Array<(...args: unknown[]) => void>) {
    socket.off('message', listener)
    socket.on('message', (...args: unknown[]) => {
      try {
        listener(...args)
      } catch (error) {
        log('Ignored a message the SDK could not read:', String(args[0]).slice(0, 200), error)
      }
    })
  }
}
