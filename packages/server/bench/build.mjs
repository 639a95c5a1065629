// Which server a bench process runs: this checkout's, or (BENCH_ROOT) the packages/server of
// another built checkout, such as the previous release, to compare the two in one run. The doubles
// (`MockAgent`, `MockSTT`, `MockTTS`) are this checkout's for both: what is compared is the server.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = process.env.BENCH_ROOT

export { MockAgent, MockSTT, MockTTS } from '@openmic/core'

/** The `MicdropServer` under test. */
export const { MicdropServer } = await import(
  root
    ? pathToFileURL(resolve(root, 'packages/server/dist/index.js')).href
    : new URL('../dist/index.js', import.meta.url).href
)
