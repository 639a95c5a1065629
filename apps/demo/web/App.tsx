import { Micdrop, SileroVAD, type MicdropTurnMetrics, type VADConfig } from '@openmic/client'
import {
  useMicdropEndCall,
  useMicdropError,
  useMicdropState,
  useMicVolume,
  useSpeakerVolume,
} from '@openmic/react'
import { useEffect, useState } from 'react'
import { CallState } from './components/CallState.js'
import { Conversation } from './components/Conversation.js'
import { DeviceSelect } from './components/Devices.js'
import { Latency } from './components/Latency.js'
import { LevelMeter } from './components/LevelMeter.js'

const callUrl = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/call`

type VadChoice = 'volume' | 'silero' | 'both'

/** Silero's model and onnxruntime's wasm are served by the demo server itself, never a CDN. */
function vadConfig(choice: VadChoice): VADConfig {
  const silero = () => new SileroVAD({ baseAssetPath: '/vad/', onnxWASMBasePath: '/ort/' })
  if (choice === 'silero') return silero()
  if (choice === 'both') return ['volume', silero()]
  return 'volume'
}

interface ServerInfo {
  agent: string
  stt: string
  tts: string
  /** A speech-to-speech model in place of the three (`OPENMIC_REALTIME`). */
  realtime?: string
}

export function App() {
  const state = useMicdropState()
  const { micVolume } = useMicVolume()
  const { speakerVolume } = useSpeakerVolume()
  const [token, setToken] = useState('demo')
  const [vad, setVad] = useState<VadChoice>('volume')
  const [ended, setEnded] = useState(false)
  const [turns, setTurns] = useState<MicdropTurnMetrics[]>([])
  const [lastError, setLastError] = useState<string>()
  const [info, setInfo] = useState<ServerInfo>()

  // EndCall comes once the assistant's goodbye has finished playing: hanging up here cuts nothing
  useMicdropEndCall(() => {
    setEnded(true)
    void Micdrop.stop()
  })
  useMicdropError((error) => setLastError(error.message))
  useEffect(() => {
    const onMetrics = (metrics: MicdropTurnMetrics) =>
      setTurns((previous) => [...previous, metrics])
    Micdrop.on('Metrics', onMetrics)
    return () => void Micdrop.off('Metrics', onMetrics)
  }, [])
  useEffect(() => {
    fetch('/config.json')
      .then((response) => response.json() as Promise<ServerInfo>)
      .then(setInfo, () => {})
  }, [])

  const inCall = state.isStarted || state.isStarting
  const start = async () => {
    setEnded(false)
    setTurns([])
    setLastError(undefined)
    // Silero's runtime (vad-web, onnxruntime-web) is a separate chunk, loaded only when chosen
    if (vad !== 'volume') await import('@openmic/client/silero')
    await Micdrop.start({
      url: callUrl(),
      // The call's id: after a server restart the client reconnects with it and the call goes on.
      params: { token, conversationId: crypto.randomUUID() },
      vad: vadConfig(vad),
      debugLog: new URLSearchParams(location.search).has('debug'),
    }).catch(() => {}) // shown through useMicdropError
  }

  return (
    <main>
      <header>
        <h1>openmic demo</h1>
        {info && (
          <span className="providers" data-testid="providers">
            {info.realtime
              ? `speech-to-speech: ${info.realtime}`
              : `agent: ${info.agent} · speech-to-text: ${info.stt} · text-to-speech: ${info.tts}`}
          </span>
        )}
      </header>

      <section className="controls" aria-label="Call">
        <h2>Call</h2>
        <CallState state={state} />
        <label>
          Token
          <input
            value={token}
            onChange={(event) => setToken(event.target.value)}
            disabled={inCall}
          />
        </label>
        <label>
          Voice detection
          <select
            value={vad}
            onChange={(event) => setVad(event.target.value as VadChoice)}
            disabled={inCall}
          >
            <option value="volume">Volume</option>
            <option value="silero">Silero (neural)</option>
            <option value="both">Volume and Silero</option>
          </select>
        </label>
        <div className="row">
          {!inCall ? (
            <button onClick={() => void start()} data-testid="start">
              Start call
            </button>
          ) : (
            <button onClick={() => void Micdrop.stop()} data-testid="stop">
              Stop call
            </button>
          )}
          <button
            className="secondary"
            disabled={!state.isStarted}
            onClick={() => (state.isPaused ? Micdrop.resume() : Micdrop.pause())}
          >
            {state.isPaused ? 'Resume' : 'Pause'}
          </button>
          <button
            className="secondary"
            disabled={!state.isStarted}
            onClick={() => (state.isMuted ? Micdrop.unmute() : Micdrop.mute())}
          >
            {state.isMuted ? 'Unmute' : 'Mute'}
          </button>
        </div>
        <DeviceSelect
          label="Microphone"
          devices={state.micDevices}
          value={state.micDeviceId}
          onChange={(id) => void Micdrop.changeMicDevice(id)}
        />
        <DeviceSelect
          label="Speaker"
          devices={state.speakerDevices}
          value={state.speakerDeviceId}
          onChange={(id) => void Micdrop.changeSpeakerDevice(id)}
        />
        <LevelMeter label="Mic" dbfs={micVolume} />
        <LevelMeter label="Speaker" dbfs={speakerVolume} />
        {lastError && <p className="error">{lastError}</p>}
      </section>

      <Conversation items={state.conversation} caption={state.caption} ended={ended} />
      <Latency turns={turns} />
    </main>
  )
}
