import { MicdropClient } from '@openmic/client'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { MicdropProvider, useMicdropState, useMicVolume } from './index.js'

describe('server-side rendering', () => {
  it('renders with the hooks in Node, without a DOM', () => {
    function Call() {
      const { isStarted, conversation } = useMicdropState()
      const { micVolume } = useMicVolume()
      return <p>{`started=${isStarted} items=${conversation.length} mic=${micVolume}`}</p>
    }
    expect(typeof window).toBe('undefined')
    const html = renderToString(
      <MicdropProvider client={new MicdropClient()}>
        <Call />
      </MicdropProvider>
    )
    expect(html).toBe('<p>started=false items=0 mic=-100</p>')
  })

  it('uses the Micdrop singleton without a provider', () => {
    function Call() {
      return <p>{String(useMicdropState().isStarting)}</p>
    }
    expect(renderToString(<Call />)).toBe('<p>false</p>')
  })
})
