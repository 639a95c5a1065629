import type { IncomingHttpHeaders } from 'node:http'

/** The user and password of an HTTP Basic `authorization` header, if there is a well-formed one. */
export function readBasicAuth(
  headers: IncomingHttpHeaders
): { username: string; password: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(headers.authorization ?? '')
  if (!match) return undefined
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return undefined
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}
