/** Keys under which the chosen devices are remembered (localStorage). */
export const MicdropStorageKeys = {
  MicDevice: 'openmic:micDeviceId',
  SpeakerDevice: 'openmic:speakerDeviceId',
} as const

/** A key-value store: localStorage in the browser, an object in tests, nothing in SSR. */
export interface MicdropStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** localStorage when there is one (checked on each call, never at import), else a no-op store. */
export const browserStorage: MicdropStorage = {
  getItem: (key) => local()?.getItem(key) ?? null,
  setItem: (key, value) => local()?.setItem(key, value),
  removeItem: (key) => local()?.removeItem(key),
}

function local(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage
  } catch {
    // Access can throw (storage disabled, sandboxed iframe)
    return undefined
  }
}
