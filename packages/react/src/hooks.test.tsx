// @vitest-environment happy-dom
import { MicdropClient, MicdropClientError } from '@openmic/client'
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import type { Root } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  MicdropProvider,
  useMicdropCaption,
  useMicdropEndCall,
  useMicdropError,
  useMicdropState,
  useMicVolume,
  useSpeakerVolume,
} from './index.js'

// React's act() needs this flag outside a test framework integration
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
let container: HTMLElement

function render(client: MicdropClient, element: React.ReactNode) {
  container = document.createElement('div')
  root = createRoot(container)
  act(() => root!.render(<MicdropProvider client={client}>{element}</MicdropProvider>))
  return container
}

afterEach(() => {
  act(() => root?.unmount())
  root = undefined
  vi.useRealTimers()
})

describe('hooks', () => {
  it('useMicdropState re-renders on each state change of the provided client', () => {
    const client = new MicdropClient()
    function Status() {
      const { isMuted, isPaused } = useMicdropState()
      return <p>{`muted=${isMuted} paused=${isPaused}`}</p>
    }
    const view = render(client, <Status />)
    expect(view.textContent).toBe('muted=false paused=false')
    act(() => client.mute())
    expect(view.textContent).toBe('muted=true paused=false')
    act(() => client.pause())
    expect(view.textContent).toBe('muted=true paused=true')
  })

  it('useMicdropCaption and useMicdropState follow the caption; useMicdropCaption re-renders only when it changes', () => {
    const client = new MicdropClient()
    const caption = vi.spyOn(client, 'caption', 'get').mockReturnValue('')
    let renders = 0
    function Caption() {
      renders++
      return <p>{useMicdropCaption()}</p>
    }
    function State() {
      return <p>{useMicdropState().caption}</p>
    }
    const view = render(
      client,
      <>
        <Caption />
        <State />
      </>
    )
    expect(view.textContent).toBe('')
    // The client notifies its caption's changes through StateChange
    caption.mockReturnValue('Once upon')
    act(() => client.mute())
    expect([...view.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'Once upon',
      'Once upon',
    ])
    const before = renders
    act(() => client.unmute()) // another change, the same caption
    expect(renders).toBe(before)
    caption.mockReturnValue('')
    act(() => client.mute())
    expect(view.textContent).toBe('')
  })

  it('useMicdropError and useMicdropEndCall call the latest callback, and stop on unmount', () => {
    const client = new MicdropClient()
    const errors: string[] = []
    const ends: string[] = []
    function Listener({ name }: { name: string }) {
      useMicdropError((error) => errors.push(`${name}:${error.code}`))
      useMicdropEndCall(() => ends.push(name))
      return null
    }
    render(client, <Listener name="a" />)
    act(() =>
      root!.render(
        <MicdropProvider client={client}>
          <Listener name="b" />
        </MicdropProvider>
      )
    )
    act(() => void client.emit('Error', new MicdropClientError('Unauthorized')))
    act(() => void client.emit('EndCall'))
    expect(errors).toEqual(['b:Unauthorized'])
    expect(ends).toEqual(['b'])
    act(() => root!.unmount())
    root = undefined
    client.emit('EndCall')
    expect(ends).toEqual(['b'])
  })

  it('useMicVolume follows the microphone level in dBFS and keeps the maximum', () => {
    const client = new MicdropClient()
    function Meter() {
      const { micVolume, maxMicVolume } = useMicVolume()
      return <p>{`${micVolume}/${maxMicVolume}`}</p>
    }
    const view = render(client, <Meter />)
    expect(view.textContent).toBe('-100/-100')
    act(() => void client.mic.emit('Volume', -30.4))
    act(() => void client.mic.emit('Volume', -60))
    expect(view.textContent).toBe('-60/-30')
  })

  it('useSpeakerVolume reads the output level every 50 ms', () => {
    vi.useFakeTimers()
    const client = new MicdropClient()
    const level = vi.spyOn(client.speaker, 'getVolume').mockReturnValue(-18.2)
    function Meter() {
      const { speakerVolume } = useSpeakerVolume()
      return <p>{speakerVolume}</p>
    }
    const view = render(client, <Meter />)
    expect(view.textContent).toBe('-100')
    act(() => void vi.advanceTimersByTime(50))
    expect(view.textContent).toBe('-18')
    level.mockReturnValue(-100)
    act(() => void vi.advanceTimersByTime(50))
    expect(view.textContent).toBe('-100')
  })
})
