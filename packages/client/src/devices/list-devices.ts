import type { MicdropDevice } from '../audio/types.js'

/** Lists the audio devices of a kind. Labels are empty until the user allowed the microphone. */
export async function listDevices(kind: 'audioinput' | 'audiooutput'): Promise<MicdropDevice[]> {
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.enumerateDevices) return []
  const devices = await navigator.mediaDevices.enumerateDevices()
  return devices
    .filter((device) => device.kind === kind)
    .map((device) => ({ deviceId: device.deviceId, label: device.label }))
}
