import { execFileSync } from 'node:child_process'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, packageDir } from './browser/harness.js'

// Every browser global the client uses, trapped: touching one while importing (server-side
// rendering) or constructing a client fails the script
const script = `
const touched = []
for (const name of ['window', 'document', 'navigator', 'AudioContext', 'AudioWorkletNode', 'localStorage', 'WebSocket', 'MediaStream', 'Blob', 'URL']) {
  const original = globalThis[name]
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() { touched.push(name); return original },
  })
}
const client = await import('@openmic/client')
const instance = new client.MicdropClient({ url: 'ws://example.invalid' })
const state = instance.state
const singleton = client.Micdrop.state
console.log(JSON.stringify({ touched, exports: Object.keys(client).length, state, singleton: singleton.isStarted }))
`

describe('server-side rendering', () => {
  beforeAll(() => ensureBuilt())

  it('imports the built package in plain Node without touching a browser global', () => {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: packageDir,
      encoding: 'utf8',
    })
    const result = JSON.parse(output)
    expect(result.touched).toEqual([])
    expect(result.exports).toBeGreaterThan(20)
    expect(result.state).toMatchObject({ isStarted: false, isStarting: false, conversation: [] })
    expect(result.singleton).toBe(false)
  })
})
