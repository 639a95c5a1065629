import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
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
console.log(JSON.stringify({ touched, exports: Object.keys(client).sort(), state, singleton: singleton.isStarted }))
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
    // What applications use, and nothing more (no PCM helpers, worklet source, or internals)
    expect(result.exports).toEqual([
      'Mic',
      'MicRecorder',
      'Micdrop',
      'MicdropClient',
      'MicdropClientError',
      'MicdropClientErrorCode',
      'MultipleVAD',
      'SILENCE_DB',
      'SileroVAD',
      'Speaker',
      'VAD',
      'VADStatus',
      'VolumeVAD',
      'listDevices',
    ])
    expect(result.state).toMatchObject({
      isStarted: false,
      isStarting: false,
      conversation: [],
      caption: '',
    })
    expect(result.singleton).toBe(false)
  })

  it('keeps @ricky0123/vad-web out of the main entry (apps without Silero build without it)', () => {
    const dist = join(packageDir, 'dist')
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.js') && file !== 'silero.js'
    )
    expect(files.length).toBeGreaterThan(10)
    for (const file of files) {
      expect(readFileSync(join(dist, file), 'utf8'), file).not.toMatch(
        /['"]@ricky0123\/vad-web['"]/
      )
    }
    expect(readFileSync(join(dist, 'silero.js'), 'utf8')).toMatch(/from '@ricky0123\/vad-web'/)
  })
})
