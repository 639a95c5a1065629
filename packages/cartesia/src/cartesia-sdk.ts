import type * as CartesiaSDK from '@cartesia/cartesia-js'
import { createRequire } from 'node:module'

/**
 * The official SDK's client class, from its CommonJS build. Its ESM build looks `ws` up with
 * `require`, which ES modules do not have: on Node 20 it then finds no WebSocket at all, and where
 * a global WebSocket exists it takes the browser path, which puts the API key in the URL. The
 * CommonJS build finds `ws` and sends the key in a header.
 */
export const Cartesia = (
  createRequire(import.meta.url)('@cartesia/cartesia-js') as typeof CartesiaSDK
).Cartesia

/** An instance of the SDK's client. */
export type Cartesia = CartesiaSDK.Cartesia
