/** Times of one streamed answer, in ms from the request: first text chunk and stream end. */
export interface AnswerTimes {
  first: number
  end: number
}

/** One round of an agent-vs-raw-SDK benchmark: both sides answered, in the order given. */
export interface BenchRound {
  raw: AnswerTimes
  agent: AnswerTimes
  /** The raw SDK ran first in this round (the order matters: the run after an agent is slower). */
  rawFirst: boolean
}

const COLUMNS = ['raw median', 'raw p99', 'agent med.', 'agent p99', 'med. diff', 'ratio']
const ROWS: Array<[keyof AnswerTimes, string]> = [
  ['first', 'first chunk'],
  ['end', 'stream end'],
]

/** The `q` quantile (0..1) of `values`, by rank. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

const medianDiff = (rounds: BenchRound[], key: keyof AnswerTimes) =>
  quantile(
    rounds.map((round) => round.agent[key] - round.raw[key]),
    0.5
  )

/**
 * The report of an agent-vs-raw-SDK latency benchmark: for the first chunk and the stream end,
 * the medians and p99 of both sides, the median of the per-round differences (agent − raw) and
 * the ratio of the medians; then the median differences split by which side ran first.
 */
export function formatAgentVsRaw(title: string, rounds: BenchRound[]): string {
  const cell = (value: number) => `${value.toFixed(3)} ms`.padStart(11)
  const lines = [title, ''.padEnd(14) + COLUMNS.map((column) => column.padStart(11)).join('')]
  for (const [key, label] of ROWS) {
    const raw = rounds.map((round) => round.raw[key])
    const agent = rounds.map((round) => round.agent[key])
    const cells = [quantile(raw, 0.5), quantile(raw, 0.99), quantile(agent, 0.5)]
    cells.push(quantile(agent, 0.99), medianDiff(rounds, key))
    const ratio = (quantile(agent, 0.5) / quantile(raw, 0.5)).toFixed(3).padStart(11)
    lines.push(label.padEnd(14) + cells.map(cell).join('') + ratio)
  }
  const byOrder = [true, false].map((rawFirst) => {
    const subset = rounds.filter((round) => round.rawFirst === rawFirst)
    const diffs = ROWS.map(([key]) => medianDiff(subset, key).toFixed(3))
    return `${rawFirst ? 'raw' : 'agent'} first ${diffs.join(' / ')} ms`
  })
  lines.push(`med. diff by order (first chunk / stream end): ${byOrder.join(', ')}`)
  return lines.join('\n')
}
