/** The names worked out so far, by suffix and class. */
const names: Partial<Record<string, WeakMap<object, string>>> = {}

/**
 * The provider name of an agent, STT or TTS that does not say its own: its class name without the
 * part's suffix, in snake case (`AcmeVoiceTTS` → `acme_voice`), as OpenTelemetry's GenAI
 * conventions spell provider names. The class name as it is when nothing is left.
 */
export function defaultProviderName(
  instance: object,
  suffix: 'Agent' | 'STT' | 'TTS' | 'Realtime'
): string {
  // Read at every model call and turn report: worked out once per class
  const byClass = (names[suffix] ??= new WeakMap())
  let name = byClass.get(instance.constructor)
  if (name === undefined) {
    name = providerNameOf(instance.constructor.name, suffix)
    byClass.set(instance.constructor, name)
  }
  return name
}

function providerNameOf(className: string, suffix: string): string {
  const base = className.endsWith(suffix) ? className.slice(0, -suffix.length) : className
  if (base === '') return className
  return base
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
}
