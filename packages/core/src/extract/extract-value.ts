import type { ExtractTagOptions } from './types.js'

/** What {@link extractValue} found in an answer. */
export interface ExtractedValue {
  /** The answer without the extracted part, trimmed at its end. */
  message: string
  /** True when the start tag was found. */
  found: boolean
  /** The extracted value: the text between the tags, or the parsed JSON. Unset when invalid. */
  value?: unknown
  /** Why the value could not be extracted (missing end tag in JSON mode, invalid JSON, ...). */
  problem?: string
}

/**
 * Splits an answer into the spoken message and the value written at its end.
 *
 * Tag mode returns the text between `startTag` and the first `endTag` after it (or the rest of the
 * answer when the end tag is missing). JSON mode (`json: true`, tags `{` and `}`) parses the text
 * from the first `{` to the last `}`. Nothing after the start tag is ever part of the message,
 * since the answer writer never streams it.
 */
export function extractValue(
  text: string,
  options: ExtractTagOptions & { json?: boolean }
): ExtractedValue {
  const start = text.indexOf(options.startTag)
  if (start === -1) return { message: text, found: false }
  const message = text.slice(0, start).trimEnd()

  if (options.json) {
    const end = text.lastIndexOf(options.endTag)
    const raw = end < start ? text.slice(start) : text.slice(start, end + options.endTag.length)
    try {
      return { message, found: true, value: JSON.parse(raw) }
    } catch (error) {
      return {
        message,
        found: true,
        problem: `invalid JSON ${JSON.stringify(raw)}: ${errorMessage(error)}`,
      }
    }
  }

  const valueStart = start + options.startTag.length
  const end = text.indexOf(options.endTag, valueStart)
  if (end === -1) {
    return {
      message,
      found: true,
      value: text.slice(valueStart).trim(),
      problem: `end tag ${JSON.stringify(options.endTag)} missing; took the rest of the answer`,
    }
  }
  return { message, found: true, value: text.slice(valueStart, end).trim() }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
