import { describe, expect, it, vi } from 'vitest'
import { Logger } from '../logger/Logger.js'
import { ToolAgent } from '../../test/tool-agent.js'

describe('Agent.extract', () => {
  it('JSON mode, as the spec example shows', () => {
    const agent = new ToolAgent({ extract: { json: true, saveInMetadata: true } })
    expect(agent.extract('The answer is 42. {"score":42}')).toEqual({
      message: 'The answer is 42.',
      metadata: { extracted: { score: 42 } },
    })
  })

  it('tag mode returns the text between the tags, as the spec example shows', () => {
    const agent = new ToolAgent({
      extract: { startTag: '<score>', endTag: '</score>', saveInMetadata: true },
    })
    expect(agent.extract('The answer is 42. <score>42</score>')).toEqual({
      message: 'The answer is 42.',
      metadata: { extracted: '42' },
    })
  })

  it('calls the callback with the value, and keeps metadata only with saveInMetadata', () => {
    const callback = vi.fn()
    const agent = new ToolAgent({ extract: { json: true, callback } })
    expect(agent.extract('Done. {"ok":true,"items":[1,2]}')).toEqual({ message: 'Done.' })
    expect(callback).toHaveBeenCalledWith({ ok: true, items: [1, 2] })
  })

  it('leaves a message without tag untouched and calls nothing', () => {
    const callback = vi.fn()
    const agent = new ToolAgent({
      extract: { startTag: '<x>', endTag: '</x>', callback, saveInMetadata: true },
    })
    expect(agent.extract('Nothing to see.')).toEqual({ message: 'Nothing to see.' })
    expect(callback).not.toHaveBeenCalled()
  })

  it('takes the rest of the answer when the end tag is missing, and logs it', () => {
    const lines: unknown[][] = []
    const agent = new ToolAgent({
      extract: { startTag: '<mood>', endTag: '</mood>', saveInMetadata: true },
    })
    agent.logger = new Logger('A', (...line) => lines.push(line))
    expect(agent.extract('Fine. <mood> happy ')).toEqual({
      message: 'Fine.',
      metadata: { extracted: 'happy' },
    })
    expect(lines.flat().join(' ')).toContain('end tag "</mood>" missing')
  })

  it('keeps the spoken part and logs clearly on invalid JSON, without throwing', () => {
    const lines: unknown[][] = []
    const callback = vi.fn()
    const agent = new ToolAgent({ extract: { json: true, callback, saveInMetadata: true } })
    agent.logger = new Logger('A', (...line) => lines.push(line))
    expect(agent.extract('Sure. {"score": 4')).toEqual({ message: 'Sure.' })
    expect(callback).not.toHaveBeenCalled()
    expect(lines.flat().join(' ')).toMatch(/extract: invalid JSON "\{\\"score\\": 4"/)
  })

  it('warns on the console about invalid JSON when no logger is attached', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const agent = new ToolAgent({ extract: { json: true } })
    agent.extract('Oops {not json}')
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('ToolAgent'),
      expect.stringContaining('invalid JSON')
    )
    warn.mockRestore()
  })

  it('survives a callback that throws', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const agent = new ToolAgent({
      extract: {
        json: true,
        saveInMetadata: true,
        callback: () => {
          throw new Error('bad callback')
        },
      },
    })
    expect(agent.extract('Hi {"a":1}')).toEqual({
      message: 'Hi',
      metadata: { extracted: { a: 1 } },
    })
    warn.mockRestore()
  })

  it('converts JSON mode to { } tags in getExtractOptions', () => {
    expect(new ToolAgent({ extract: { json: true } }).extractOptions()).toMatchObject({
      startTag: '{',
      endTag: '}',
      json: true,
    })
    expect(new ToolAgent().extractOptions()).toBeUndefined()
  })
})
