import { expect, it } from 'vitest'
import { SileroVAD } from '../src/index.js'
import { silence, speak } from './audio.js'
import { feed, pairs, record } from './events.js'

it('warmUp() loads the model once: later warm-ups and VADs share it', async () => {
  await Promise.all([SileroVAD.warmUp(), SileroVAD.warmUp()])
  await SileroVAD.warmUp()
  const vad = new SileroVAD()
  const events = record(vad)
  await feed(vad, Buffer.concat([silence(500), await speak('Good morning.'), silence(1000)]))
  vad.destroy()
  expect(pairs(events)).toHaveLength(1)
})
