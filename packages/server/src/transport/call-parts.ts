import type { Agent, STT, TTS } from '@openmic/core'
import type { MicdropServerOptions } from '../server/types.js'

/** The agent, STT and TTS a call's turn rules drive, whatever it was given. */
export interface CallParts {
  agent: Agent
  stt: STT
  tts: TTS
}

/**
 * The call's parts from its options: `agent`, `stt` and `tts`, or the three faces of a
 * `realtime` agent (one session of a speech-to-speech model). Anything else is a mistake in the
 * app's code, told at once.
 */
export function callParts(options: MicdropServerOptions): CallParts {
  const { realtime, agent, stt, tts } = options
  if (realtime) {
    if (agent || stt || tts) {
      throw new TypeError(
        'A call takes `realtime` in place of `agent`, `stt` and `tts`, not beside them ' +
          '(to speak the first message with a TTS, give it to the RealtimeAgent as `textTTS`)'
      )
    }
    return { agent: realtime, stt: realtime.stt, tts: realtime.tts }
  }
  if (!agent || !stt || !tts) {
    const missing = (['agent', 'stt', 'tts'] as const).filter((name) => !options[name])
    throw new TypeError(
      `A call needs \`agent\`, \`stt\` and \`tts\` (missing: ${missing.join(', ')}), or \`realtime\``
    )
  }
  return { agent, stt, tts }
}
