import type { CallScript } from './script.js'
import type { SimulationResult } from './simulate-call.js'
import { formatTimeline } from './timeline.js'

/**
 * A simulated call's failure, to print: the violations, the call's timeline, and the script as
 * JSON, which `simulateCall` replays exactly.
 */
export function formatFailure(script: CallScript, result: SimulationResult): string {
  const violations = result.violations.map(
    (violation) =>
      `  ✗ ${violation.name}${violation.atMs === undefined ? '' : ` (${Math.round(violation.atMs)} ms)`}: ${violation.message}`
  )
  return [
    `Simulated call: ${result.violations.length} violation(s)`,
    ...violations,
    '',
    'Timeline:',
    formatTimeline(result.timeline),
    '',
    'Script (replay it with simulateCall):',
    scriptJson(script),
  ].join('\n')
}

/** The script as JSON, its lists one entry per line. */
export function scriptJson(script: CallScript): string {
  const lines = Object.entries(script).map(([key, value]) => {
    if (key === 'steps' && Array.isArray(value)) return `  "steps": ${list(value, '  ')}`
    if (key === 'agent' && value && typeof value === 'object' && 'answers' in value) {
      const { answers, ...rest } = value as { answers?: unknown[] }
      const fields = Object.entries(rest).map(
        ([name, inner]) => `    ${JSON.stringify(name)}: ${JSON.stringify(inner)}`
      )
      if (answers) fields.push(`    "answers": ${list(answers, '    ')}`)
      return `  "agent": {\n${fields.join(',\n')}\n  }`
    }
    return `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`
  })
  return `{\n${lines.join(',\n')}\n}`
}

function list(values: unknown[], indent: string): string {
  if (values.length === 0) return '[]'
  return `[\n${values.map((value) => `${indent}  ${JSON.stringify(value)}`).join(',\n')}\n${indent}]`
}
