// Test page: loads the built @openmic/client (bundled by esbuild) and exposes a small API to the
// Playwright tests. Plain JavaScript on purpose: it runs as the browser sees it.
import { MicdropClient } from '@openmic/client'

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
}

client.on('StateChange', (state, previous) => {
  render(state)
  const now = performance.now()
  for (const key of ['isUserSpeaking', 'isAssistantSpeaking', 'isReconnecting', 'isStarted']) {
    if (state[key] !== previous[key]) events.push({ t: now, key, value: state[key] })
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
client.on('EndCall', () => events.push({ t: performance.now(), key: 'EndCall' }))

window.openmic = {
  client,
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
