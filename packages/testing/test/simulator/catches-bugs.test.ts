import type { ConversationStore } from '@openmic/server'
import { describe, expect, it } from 'vitest'
import { simulateCall, type CallScript } from '../../src/simulator/index.js'
import { fullScript } from '../../src/simulator/script.js'
import { defaultServer } from '../../src/simulator/simulate-call.js'
import { DELIBERATE_REJECTION } from './deliberate-rejection.js'
import { answerHello, interceptSend, names, withAndWithout } from './helpers.js'

// Each invariant is run against a server, agent or store broken on purpose: the check must report
// the bug, and must not report it against the same call without the bug.

/** A question answered at length, then the user waits for the answer to end. */
const question: CallScript = {
  client: 'openmic',
  agent: { answers: ['Sure, here is a fairly long answer to what you asked me just now.'] },
  tts: { chunkMs: 50, chunkDelayMs: 40 },
  steps: [{ say: 'tell me something', ms: 900 }, { waitFor: 'quiet' }],
}

/** The same, interrupted: the user speaks 300 ms into the answer. */
const interrupted: CallScript = {
  ...question,
  agent: { answers: [...question.agent!.answers!, 'Okay.'] },
  steps: [
    { say: 'tell me something', ms: 900 },
    { waitFor: 'speech', thenMs: 300 },
    { say: 'stop there', ms: 600 },
    { waitFor: 'quiet' },
  ],
}

const goodbye: CallScript = {
  client: 'openmic',
  agent: { answers: [{ text: 'Goodbye and have a lovely day.', tools: ['end_call'] }] },
  steps: [{ say: 'bye', ms: 500 }, { waitFor: 'quiet' }],
}

describe('each invariant catches a bug', () => {
  it('turn-unresolved: a server that never sends SkipAnswer', async () => {
    const script: CallScript = {
      client: 'openmic',
      steps: [{ pause: 200 }, { cough: 300 }, { waitFor: 'quiet' }],
    }
    const { intact, broken } = await withAndWithout(script, (_server, socket) =>
      interceptSend(socket, (data, deliver) => data !== 'SkipAnswer' && deliver())
    )
    expect(names(intact)).not.toContain('turn-unresolved')
    expect(names(broken)).toContain('turn-unresolved')
  })

  it('extra-skip-answer: a server that sends SkipAnswer twice', async () => {
    const script: CallScript = {
      client: 'openmic',
      steps: [{ pause: 200 }, { cough: 300 }, { waitFor: 'quiet' }],
    }
    const { intact, broken } = await withAndWithout(script, (_server, socket) =>
      interceptSend(socket, (data, deliver) => {
        deliver()
        if (data === 'SkipAnswer') deliver()
      })
    )
    expect(names(intact)).not.toContain('extra-skip-answer')
    expect(names(broken)).toContain('extra-skip-answer')
  })

  it('answered-twice: a server that answers the same message again', async () => {
    const { intact, broken } = await withAndWithout(question, (server) => {
      let again = false
      server.on('AnswerEnd', (outcome) => {
        if (outcome !== 'spoken' || again) return
        again = true
        void server.answer()
      })
    })
    expect(names(intact)).not.toContain('answered-twice')
    expect(broken.violations.filter((v) => v.name === 'answered-twice')).toHaveLength(2)
  })

  it('audio-after-barge-in: a socket that leaks a frame of the answer after StartSpeaking', async () => {
    const { intact, broken } = await withAndWithout(interrupted, (_server, socket) => {
      let lastAudio: Buffer | undefined
      interceptSend(socket, (data, deliver) => {
        if (Buffer.isBuffer(data)) lastAudio = data
        deliver()
      })
      // Added after the server's listener: runs once the server handled the frame.
      socket.on('message', (data: Buffer, isBinary: boolean) => {
        if (!isBinary && data.toString() === 'StartSpeaking' && lastAudio) socket.send(lastAudio)
      })
    })
    expect(names(intact)).not.toContain('audio-after-barge-in')
    expect(names(broken)).toContain('audio-after-barge-in')
  })

  it('message-late: a server that holds the assistant Message back', async () => {
    const { intact, broken } = await withAndWithout(question, (_server, socket) =>
      interceptSend(socket, (data, deliver) => {
        if (typeof data === 'string' && data.startsWith('Message {"role":"assistant"')) {
          setTimeout(deliver, 2_000)
        } else deliver()
      })
    )
    expect(names(intact)).not.toContain('message-late')
    expect(names(broken)).toContain('message-late')
  })

  it('conversation-mismatch: a store that drops a record', async () => {
    const intact = await simulateCall(question)
    const broken = await simulateCall(question, {
      server: (socket, parts) => {
        const dropsTheSecond: ConversationStore = {
          load: (id) => parts.store.load(id),
          end: (id) => parts.store.end(id),
          // Says it stored record 1, and stores the next ones one place early.
          append: async (id, index, record) =>
            index === 1 ? undefined : parts.store.append(id, index > 1 ? index - 1 : index, record),
        }
        return defaultServer(socket, { ...parts, store: dropsTheSecond }, fullScript(question))
      },
    })
    expect(names(intact)).not.toContain('conversation-mismatch')
    expect(broken.violations.map((v) => v.message)).toContainEqual(
      expect.stringMatching(/^The store's conversation differs from the agent's at item 2/)
    )
  })

  it("heard-mismatch: an agent that keeps its own copy of what it says (the server's cut misses it)", async () => {
    const { intact, broken } = await withAndWithout(interrupted, (server) => {
      const agent = server.agent
      agent.addMessage = (role, content, metadata) => {
        const message = { role, content, ...(metadata ? { metadata } : {}) }
        agent.conversation.push({ ...message })
        agent.emit('Message', message)
      }
    })
    expect(names(intact)).not.toContain('heard-mismatch')
    expect(names(broken)).toContain('heard-mismatch')
  })

  it('end-call-early: a server that sends EndCall as soon as the agent ends the call', async () => {
    const { intact, broken } = await withAndWithout(goodbye, (server, socket) =>
      server.agent.on('EndCall', () => socket.send('EndCall'))
    )
    expect(names(intact)).not.toContain('end-call-early')
    expect(names(broken)).toContain('end-call-early')
  })

  it('end-call-missing: a server that never sends EndCall', async () => {
    const { intact, broken } = await withAndWithout(goodbye, (_server, socket) =>
      interceptSend(socket, (data, deliver) => data !== 'EndCall' && deliver())
    )
    expect(intact.closeCode).toBe(1000)
    expect(names(intact)).not.toContain('end-call-missing')
    expect(names(broken)).toContain('end-call-missing')
  })

  it('stuck: a server that leaves a timer running', async () => {
    const { intact, broken } = await withAndWithout(question, (_server, socket) => {
      setInterval(() => socket.ping(), 10_000) // a keep-alive never cleared
    })
    expect(names(intact)).not.toContain('stuck')
    expect(broken.violations.map((v) => v.message)).toContainEqual(
      expect.stringMatching(/timer\(s\) still pending/)
    )
  })

  it('stuck: a server that lets the client pause and never settles the pause', async () => {
    const script: CallScript = {
      ...question,
      steps: [
        { say: 'tell me something', ms: 900 },
        { waitFor: 'speech', thenMs: 200 },
        { cough: 200 },
        { waitFor: 'quiet' },
      ],
    }
    const { intact, broken } = await withAndWithout(script, (_server, socket) => {
      answerHello(socket)
      interceptSend(
        socket,
        (data, deliver) => data !== 'Resume' && data !== 'Interrupt' && deliver()
      )
    })
    expect(names(intact)).not.toContain('stuck')
    expect(broken.violations.map((v) => v.message)).toContainEqual(
      expect.stringMatching(/still holds a paused answer/)
    )
  })

  it('unhandled-rejection: a listener that leaves a promise rejection unhandled', async () => {
    const { intact, broken } = await withAndWithout(question, (server) =>
      server.once('Message', () => void Promise.reject(new Error(DELIBERATE_REJECTION)))
    )
    expect(names(intact)).not.toContain('unhandled-rejection')
    expect(names(broken)).toContain('unhandled-rejection')
  })

  it('error-logged: a listener that throws (the server logs it)', async () => {
    const { intact, broken } = await withAndWithout(question, (server) =>
      server.once('Message', () => {
        throw new Error('listener bug')
      })
    )
    expect(names(intact)).not.toContain('error-logged')
    expect(names(broken)).toContain('error-logged')
  })
})
