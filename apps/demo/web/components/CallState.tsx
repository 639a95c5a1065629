import type { MicdropState } from '@openmic/client'

/** One word for what the call is doing now, and its indicator colour. */
export function describeCallState(state: MicdropState): { key: string; label: string } {
  if (state.error) return { key: 'error', label: `Error: ${state.error.message}` }
  if (state.isStarting) return { key: 'processing', label: 'Connecting…' }
  if (state.isReconnecting) return { key: 'processing', label: 'Reconnecting…' }
  if (!state.isStarted) return { key: 'idle', label: 'Not in a call' }
  if (state.isPaused) return { key: 'idle', label: 'Paused' }
  if (state.isAssistantSpeaking) return { key: 'assistant-speaking', label: 'Assistant speaking' }
  if (state.isUserSpeaking) return { key: 'user-speaking', label: 'You are speaking' }
  if (state.isProcessing) return { key: 'processing', label: 'Thinking…' }
  if (state.isMuted) return { key: 'idle', label: 'Muted' }
  return { key: 'listening', label: 'Listening' }
}

export function CallState({ state }: { state: MicdropState }) {
  const { key, label } = describeCallState(state)
  return (
    <div className="state" data-state={key} data-testid="call-state">
      <span className="dot" />
      {label}
    </div>
  )
}
