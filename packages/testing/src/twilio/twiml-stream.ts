/** The `<Connect><Stream>` of a TwiML document: where Twilio connects the call's Media Stream. */
export interface TwimlStream {
  /** The `url` of `<Stream>`. */
  url: string
  /** Its `<Parameter name value/>` children, sent in `start.customParameters`. */
  parameters: Record<string, string>
}

/** A tag's attributes: quoted values may hold a `>` (XML leaves it unescaped there). */
const ATTRS = `((?:[^>"']|"[^"]*"|'[^']*')*?)`

/**
 * Reads the `<Connect><Stream url>` of a TwiML document and its `<Parameter>`s, as Twilio does
 * when the call is answered; undefined if the TwiML connects no stream. Attributes are decoded
 * (`&amp;`, `&quot;`, numeric references).
 */
export function readTwimlStream(twiml: string): TwimlStream | undefined {
  const connect = /<Connect\b[^>]*>([\s\S]*?)<\/Connect>/.exec(twiml)?.[1]
  const stream =
    connect && new RegExp(`<Stream\\b${ATTRS}(/>|>([\\s\\S]*?)</Stream>)`).exec(connect)
  if (!stream) return undefined
  const url = attributes(stream[1]!).url
  if (!url) return undefined
  const parameters: Record<string, string> = {}
  for (const [, attrs] of (stream[3] ?? '').matchAll(new RegExp(`<Parameter\\b${ATTRS}/?>`, 'g'))) {
    const { name, value } = attributes(attrs!)
    if (name !== undefined) parameters[name] = value ?? ''
  }
  return { url, parameters }
}

function attributes(text: string): Record<string, string> {
  const found: Record<string, string> = {}
  for (const [, name, double, single] of text.matchAll(
    /([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g
  )) {
    found[name!] = decodeXml(double ?? single ?? '')
  }
  return found
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
    if (entity[0] !== '#') return ENTITIES[entity] ?? whole
    const hex = entity[1] === 'x' || entity[1] === 'X'
    return String.fromCodePoint(parseInt(entity.slice(hex ? 2 : 1), hex ? 16 : 10))
  })
}
