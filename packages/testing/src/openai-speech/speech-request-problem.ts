import type { IncomingHttpHeaders } from 'node:http'

/** An HTTP error the real API answers instead of audio. */
export interface OpenaiSpeechRequestProblem {
  status: number
  body: unknown
}

/**
 * What OpenAI's `POST /v1/audio/speech` would refuse in a request, or undefined when it would
 * speak it: no bearer key (401), a missing `model`, `voice` or `input`, an input over 4096
 * characters, a speed outside 0.25–4 (400). A `response_format` other than `pcm` is refused too:
 * the fake speaks only raw PCM.
 */
export function openaiSpeechRequestProblem(
  headers: IncomingHttpHeaders,
  body: unknown
): OpenaiSpeechRequestProblem | undefined {
  if (!/^Bearer \S+/.test(headers.authorization ?? '')) {
    return problem(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.",
      null
    )
  }
  if (!body || typeof body !== 'object') return problem(400, 'The body must be a JSON object.')
  const { model, voice, input, response_format: format, speed } = body as Record<string, unknown>
  if (typeof model !== 'string' || model === '') {
    return problem(400, "Missing required parameter: 'model'.", 'model')
  }
  if (voice === undefined || voice === '') {
    return problem(400, "Missing required parameter: 'voice'.", 'voice')
  }
  if (typeof input !== 'string' || input === '') {
    return problem(400, "Missing required parameter: 'input'.", 'input')
  }
  if (input.length > 4096) {
    return problem(400, 'The input may hold at most 4096 characters.', 'input')
  }
  if (format !== 'pcm') {
    return problem(
      400,
      `Fake server: only response_format 'pcm' is spoken here.`,
      'response_format'
    )
  }
  if (speed !== undefined && (typeof speed !== 'number' || speed < 0.25 || speed > 4)) {
    return problem(400, 'speed must be between 0.25 and 4.0.', 'speed')
  }
  return undefined
}

/** OpenAI's error body. */
export function speechErrorBody(
  message: string,
  options: { type?: string; param?: string | null; code?: string | null } = {}
): unknown {
  const { type = 'invalid_request_error', param = null, code = null } = options
  return { error: { message, type, param, code } }
}

function problem(status: number, message: string, param: string | null = null) {
  const code = status === 401 ? 'invalid_api_key' : null
  return { status, body: speechErrorBody(message, { param, code }) }
}
