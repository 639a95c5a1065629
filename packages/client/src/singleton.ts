import { MicdropClient } from './client/MicdropClient.js'

/**
 * The app's default client, as in Micdrop (`Micdrop.start({ url })`); the React hooks use it
 * unless a `MicdropProvider` gives another. Creating it touches no browser API.
 */
export const Micdrop = new MicdropClient()
