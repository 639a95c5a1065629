import type { MicdropDevice } from '@openmic/client'

interface DeviceSelectProps {
  label: string
  devices: MicdropDevice[]
  value: string | undefined
  onChange: (deviceId: string) => void
}

/** Picks a microphone or a speaker; the client remembers the choice for the next visits. */
export function DeviceSelect({ label, devices, value, onChange }: DeviceSelectProps) {
  return (
    <label>
      {label}
      <select
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value)}
        disabled={devices.length === 0}
      >
        {devices.length === 0 && <option value="">Default</option>}
        {devices.map((device) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || device.deviceId}
          </option>
        ))}
      </select>
    </label>
  )
}
