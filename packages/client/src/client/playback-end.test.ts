import { describe, expect, it } from 'vitest'
import { audio, fakeCall, startSpeaking } from '../../test/fake-call.js'

// The client's Hello says it reports the end of its playback (`reportsPlaybackEnd`): the server
// then knows an answer was heard to its end, instead of estimating it.

describe('the end of playback is reported', () => {
  it('when everything received was played: Played with the position reached', async () => {
    const { speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive(audio(200))
    ws.receive(audio(100))
    expect(ws.texts.some((text) => text.startsWith('Played'))).toBe(false)
    speaker.finish()
    expect(ws.texts.at(-1)).toBe('Played {"ms":300}')
  })

  it('not when the answer is dropped at a barge-in: the report before StartSpeaking says it', async () => {
    const { mic, connect } = fakeCall()
    const ws = await connect()
    ws.receive(audio(200))
    startSpeaking(mic)
    expect(ws.texts.filter((text) => text.startsWith('Played'))).toEqual(['Played {"ms":0}'])
    expect(ws.texts.at(-1)).toBe('StartSpeaking')
  })
})
