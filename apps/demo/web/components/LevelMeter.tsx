/** The range a meter shows: speech sits around -50 to -20 dBFS. */
const FLOOR_DB = -70

/** A horizontal level bar for a level in dBFS (-100 silence … 0 full scale, as the hooks give). */
export function LevelMeter({ label, dbfs }: { label: string; dbfs: number }) {
  const fraction = Math.min(1, Math.max(0, (dbfs - FLOOR_DB) / -FLOOR_DB))
  return (
    <div className="meter" aria-label={`${label} level`} data-dbfs={dbfs}>
      <span>{label}</span>
      <div className="bar">
        <div className="fill" style={{ width: `${Math.round(fraction * 100)}%` }} />
      </div>
    </div>
  )
}
