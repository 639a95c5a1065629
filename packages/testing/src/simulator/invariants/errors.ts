import type { CallRecord, Violation } from './call-record.js'

/** Lines of the server's logger that say something broke inside it (as the server's fuzz test reads them). */
export const ERROR_LINE = /Internal error|threw/

/** No promise rejection went unhandled during the call, and the server logged no internal error. */
export function checkErrors(record: CallRecord): Violation[] {
  return [
    ...record.rejections.map((reason): Violation => ({
      name: 'unhandled-rejection',
      message: `Unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    })),
    ...record.errorLines.map((line): Violation => ({
      name: 'error-logged',
      message: `Logged: ${line}`,
    })),
  ]
}
