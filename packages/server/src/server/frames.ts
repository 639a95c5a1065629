import type { RawData } from 'ws'

/** Size in bytes of a frame as `ws` delivers it. */
export function frameSize(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((total, part) => total + part.length, 0)
  return data.byteLength
}

/** The frame's bytes as one Buffer. */
export function frameBuffer(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data)
  return Buffer.isBuffer(data) ? data : Buffer.from(data)
}
