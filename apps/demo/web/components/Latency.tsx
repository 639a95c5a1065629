import type { MicdropTurnMetrics } from '@openmic/client'

const format = (ms: number | undefined) => (ms === undefined ? '–' : `${Math.round(ms)} ms`)

/** Each turn's latency, as the server measured it (`Metrics` messages). */
export function Latency({ turns }: { turns: MicdropTurnMetrics[] }) {
  return (
    <section className="latency" aria-label="Latency">
      <h2>Latency per turn</h2>
      <table>
        <thead>
          <tr>
            <th>Turn</th>
            <th>Speech to text</th>
            <th>Agent first text</th>
            <th>TTS first audio</th>
            <th>End to end</th>
          </tr>
        </thead>
        <tbody>
          {turns.map((turn, index) => (
            <tr key={index} data-testid="latency-row">
              <td>{index + 1}</td>
              <td>{format(turn.sttMs)}</td>
              <td>{format(turn.agentFirstTextMs)}</td>
              <td>{format(turn.ttsFirstAudioMs)}</td>
              <td>{format(turn.endToEndMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
