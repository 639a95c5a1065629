// @vitest-environment happy-dom
// What a call costs a React tree: a state change or a microphone level, from the client's event to
// the committed re-render (happy-dom, React 19, act()).
import { MicdropClient } from '@openmic/client'
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { bench, describe } from 'vitest'
import { MicdropProvider, useMicdropState, useMicVolume } from '../src/index.js'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

function mount(element: React.ReactNode) {
  const client = new MicdropClient()
  const root = createRoot(document.createElement('div'))
  act(() => root.render(<MicdropProvider client={client}>{element}</MicdropProvider>))
  return client
}

function Status() {
  const { isMuted, isListening, conversation } = useMicdropState()
  return <p>{`${isMuted} ${isListening} ${conversation.length}`}</p>
}

function Meter() {
  const { micVolume } = useMicVolume()
  return <meter min={-100} max={0} value={micVolume} />
}

describe('hooks', () => {
  const stateClient = mount(<Status />)
  bench('useMicdropState: mute() → re-rendered', () => {
    act(() => (stateClient.isMuted ? stateClient.unmute() : stateClient.mute()))
  })

  const levelClient = mount(<Meter />)
  let level = -60
  bench('useMicVolume: a new level → re-rendered', () => {
    level = level === -60 ? -30 : -60
    act(() => void levelClient.mic.emit('Volume', level))
  })
  bench('useMicVolume: the same rounded level → no render', () => {
    act(() => void levelClient.mic.emit('Volume', level + 0.1))
  })
})
