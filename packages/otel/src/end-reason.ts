/** Close codes a call ends with, named for the `openmic.call.end_reason` attribute. */
const REASONS: Readonly<Record<number, string>> = {
  1000: 'normal',
  1001: 'going_away',
  1005: 'no_status',
  1006: 'abnormal',
  1008: 'policy_violation',
  1009: 'message_too_big',
  1011: 'internal_error',
  1012: 'restart',
}

/** Why a call ended, from its close code (`unknown` without one). */
export function endReason(code: number | undefined): string {
  if (code === undefined) return 'unknown'
  return REASONS[code] ?? (code >= 4000 ? 'application' : 'other')
}
