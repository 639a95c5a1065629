import type { EventEmitter } from 'eventemitter3'

/** Events of a microphone source. */
export interface MicEvents {
  /** A captured frame: PCM16 mono 16 kHz (about 20 ms), and its level in dBFS (-100..0). */
  Frame: [pcm: Int16Array, volume: number]
  /** The level of the last frame, in dBFS (-100..0). */
  Volume: [volume: number]
  /** The list of devices changed (a headset was plugged in or out). */
  DeviceChange: []
}

/** What the recorder and the VADs need from a microphone ({@link Mic} in the browser, fakes in tests). */
export interface MicSource extends EventEmitter<MicEvents> {
  /** The captured stream, once started (the Silero VAD reads it). */
  readonly stream?: MediaStream
  /** The context the stream is processed in, once started. */
  readonly audioContext?: AudioContext
}

/** An audio input or output device. */
export interface MicdropDevice {
  deviceId: string
  label: string
}
