import type { FallbackSwitch, ModelCallReport, ToolCallReport } from '@openmic/core'
import type { BargeInVerdict } from '@openmic/server'
import type { Part } from './call-parts.js'

/**
 * Something the agent, STT, TTS or server reported during a call, at instant `at`
 * (performance.now()): it belongs to the turn it happened in, whose spans are built only once the
 * turn is over.
 */
export type CallRecord =
  | { kind: 'model'; at: number; report: ModelCallReport }
  | { kind: 'tool'; at: number; report: ToolCallReport }
  | { kind: 'failure'; at: number; part: Part; provider: string; error: unknown }
  | { kind: 'interruption'; at: number; verdict: BargeInVerdict; heardMs: number }
  | { kind: 'fallback'; at: number; part: Part; fallback: FallbackSwitch }

/** A turn whose spans exist: records that come late (a cancelled model call's) still go there. */
export interface PlacedTurn {
  /** The first instant it covers. */
  start: number
  /** The last instant a record of it can have (its answer's production end). */
  last: number
  place(record: CallRecord): void
}

/** How many turns a late record is looked for in, newest first. */
const RECENT_TURNS = 4

/**
 * Puts each record in its turn: held until the turn is over (`take`), or straight into a recent
 * turn it falls in. What falls in no turn (an answer to no user turn, the greeting) goes to the
 * call (`orphan`) once it ended.
 */
export class RecordPlacer {
  private pending: CallRecord[] = []
  private recent: PlacedTurn[] = []

  constructor(private readonly orphan: (record: CallRecord) => void) {}

  add(record: CallRecord): void {
    const turn = this.recent.findLast((t) => t.start <= record.at && record.at <= t.last)
    if (turn) turn.place(record)
    else this.pending.push(record)
  }

  /**
   * A turn that began at `start` is over: its records, in order. Those before it stay: they may be
   * an earlier turn's, still going on (an answer that resumed after a cough that made a turn).
   */
  take(start: number): CallRecord[] {
    const taken: CallRecord[] = []
    const kept: CallRecord[] = []
    for (const record of this.pending) (record.at >= start ? taken : kept).push(record)
    this.pending = kept
    return taken
  }

  /** The turn's spans were built. */
  placed(turn: PlacedTurn): void {
    this.recent.push(turn)
    if (this.recent.length > RECENT_TURNS) this.recent.shift()
  }

  /** The call is over: what is left goes to the call. */
  flush(): void {
    for (const record of this.pending.splice(0)) this.orphan(record)
    this.recent = []
  }
}
