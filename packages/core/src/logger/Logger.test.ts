import { describe, expect, it, vi } from 'vitest'
import { Logger } from './Logger.js'

describe('Logger', () => {
  it('prefixes each line with its name and the uptime in seconds', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    new Logger('Agent').log('Hello', { a: 1 })
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^\[Agent \d+\.\d{3}\]$/), 'Hello', {
      a: 1,
    })
    log.mockRestore()
  })

  it('writes to a custom sink', () => {
    const lines: unknown[][] = []
    const logger = new Logger('STT', (...line) => lines.push(line))
    logger.log('ready')
    expect(lines).toEqual([[expect.stringMatching(/^\[STT /), 'ready']])
    expect(logger.uptime).toBeGreaterThanOrEqual(0)
  })
})
