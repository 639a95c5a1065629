// Test page: loads the built @openmic/client (bundled by esbuild) and exposes a small API to the
// Playwright tests. Plain JavaScript on purpose: it runs as the browser sees it.
import { MicdropClient } from '@openmic/client'
// Loads @ricky0123/vad-web for the `vad: 'silero'` option
import '@openmic/client/silero'

const client = new MicdropClient()
const events = []
const bargeIns = []

function render(state) {
  document.getElementById('state').textContent = state.isStarted
    ? state.isReconnecting
      ? 'reconnecting'
      : 'started'
    : state.isStarting
      ? 'starting'
      : 'stopped'
  document.getElementById('error').textContent = state.error ? state.error.code : ''
  const list = document.getElementById('conversation')
  list.replaceChildren(
    ...state.conversation.map((item) => {
      const li = document.createElement('li')
      li.textContent = `${item.role}: ${item.content}`
      return li
    })
  )
  document.getElementById('caption').textContent = state.caption
}

let speakerPaused = false
client.on('StateChange', (state, previous) => {
  render(state)
  const now = performance.now()
  for (const key of [
    'isUserSpeaking',
    'isAssistantSpeaking',
    'isReconnecting',
    'isStarted',
    'caption',
  ]) {
    if (state[key] !== previous[key]) events.push({ t: now, key, value: state[key] })
  }
  if (state.conversation.length !== previous.conversation.length) {
    events.push({ t: now, key: 'messages', value: state.conversation.length })
  }
  // The answer paused over the user's speech (until Resume or Interrupt)
  if (client.speaker.isPaused !== speakerPaused) {
    speakerPaused = client.speaker.isPaused
    events.push({ t: now, key: 'speakerPaused', value: speakerPaused })
  }
  // Barge-in: from confirmed speech to the speaker's output really going silent
  if (state.isUserSpeaking && !previous.isUserSpeaking && previous.isAssistantSpeaking) {
    // StateChange comes just before the client stops the speaker: this is still the answer's level
    const levelBefore = client.speaker.getVolume()
    const poll = setInterval(() => {
      if (client.speaker.getVolume() > -90) return
      clearInterval(poll)
      bargeIns.push({ latency: performance.now() - now, levelBefore })
    }, 1)
  }
})
client.on('Error', (error) =>
  events.push({ t: performance.now(), key: 'error', value: error.code })
)
// Whether the speaker was still playing when EndCall came (an app hangs up here)
client.on('EndCall', () =>
  events.push({ t: performance.now(), key: 'EndCall', value: client.speaker.isPlaying })
)

const wait = (ms) => new Promise((done) => setTimeout(done, ms))

/**
 * Barge-in rounds driven through the VAD (so they do not wait for the fake microphone's loop):
 * play a tone, then feed the volume VAD 100 ms of loud audio, which confirms speech, and time
 * until the speaker's output is silent. Rounds wait while the real microphone is loud; gives up
 * after `timeoutMs`.
 */
async function measureBargeIns(rounds, timeoutMs = 10000) {
  const tone = Int16Array.from({ length: 16000 }, (_, i) => 10000 * Math.sin(i / 5))
  const latencies = []
  const deadline = performance.now() + timeoutMs
  while (latencies.length < rounds && performance.now() < deadline) {
    if (client.state.isUserSpeaking || client.mic.volume > -60) {
      await wait(100)
      continue
    }
    client.speaker.playAudio(tone)
    await wait(250)
    if (client.speaker.getVolume() < -40) continue
    const start = performance.now()
    client.micRecorder.vad.process(-20, 100)
    while (client.speaker.getVolume() > -90 && performance.now() - start < 1000) await wait(0)
    if (client.state.isUserSpeaking) latencies.push(performance.now() - start)
    client.micRecorder.vad.process(-100, 1000)
    await wait(50)
  }
  client.speaker.stopAudio()
  return latencies
}

window.openmic = {
  client,
  measureBargeIns,
  events,
  bargeIns,
  async start(options) {
    try {
      await client.start(options)
      return { ok: true }
    } catch (error) {
      return { ok: false, code: error.code, message: error.message }
    }
  },
  stop: () => client.stop(),
  state: () => {
    const { conversation, error, ...flags } = client.state
    return { ...flags, conversation, error: error?.code }
  },
}
