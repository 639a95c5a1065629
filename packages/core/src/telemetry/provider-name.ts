/**
 * The provider name of an agent, STT or TTS that does not say its own: its class name without the
 * part's suffix, in snake case (`AcmeVoiceTTS` → `acme_voice`), as OpenTelemetry's GenAI
 * conventions spell provider names. The class name as it is when nothing is left.
 */
export function defaultProviderName(
  instance: object,
  suffix: 'Agent' | 'STT' | 'TTS' | 'Realtime'
): string {
  const className = instance.constructor.name
  const base = className.endsWith(suffix) ? className.slice(0, -suffix.length) : className
  if (base === '') return className
  return base
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
}
