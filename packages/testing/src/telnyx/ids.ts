import { randomUUID } from 'node:crypto'

/** A Call Control id as Telnyx gives them (`v3:` and an opaque token). */
export function telnyxCallControlId(): string {
  return `v3:${randomUUID().replaceAll('-', '')}`
}

/** A UUID, as Telnyx's stream, session and user ids are. */
export function telnyxUuid(): string {
  return randomUUID()
}
