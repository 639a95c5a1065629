import { expect, it } from 'vitest'
import { SileroVAD } from '../src/index.js'
import { silence, speak } from './audio.js'
import { feed, pairs, record } from './events.js'

// Its own file, so its own module graph: the model is not loaded yet when the test starts.
it('audio given before the model loaded is not lost: the first words are detected', async () => {
  const speech = await speak('Hello, is anybody there?')
  const audio = Buffer.concat([silence(200), speech, silence(1000)])

  const vad = new SileroVAD()
  const events = record(vad)
  // All of it at once, synchronously: the model (loaded on the first process()) cannot be there.
  vad.process(audio)
  await vad.idle()
  vad.destroy()

  // The same events as a VAD created once the model was loaded.
  await SileroVAD.warmUp()
  const loaded = new SileroVAD()
  const reference = record(loaded)
  await feed(loaded, audio)
  loaded.destroy()

  expect(pairs(events)).toHaveLength(1)
  expect(events).toEqual(reference)
  expect(events[0]).toMatchObject({ type: 'SpeechStart' })
  expect((events[0] as { atMs: number }).atMs).toBeLessThan(500)
})
