import type { Tool } from '@openmic/core'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { prepareChatTools, prepareResponsesTools } from './prepare-tools.js'

const strictTool: Tool = {
  name: 'weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
}
const looseTool: Tool = {
  name: 'search',
  description: 'Search',
  parameters: z.object({ query: z.string(), limit: z.number().optional() }),
}

describe('prepareResponsesTools', () => {
  it('gives each tool its JSON Schema, with strict set explicitly', () => {
    const [weather, search] = prepareResponsesTools([strictTool, looseTool])
    expect(weather).toEqual({
      type: 'function',
      name: 'weather',
      description: 'Weather of a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
      strict: true,
    })
    expect(search).toMatchObject({ name: 'search', strict: false })
  })
})

describe('prepareChatTools', () => {
  it('nests the function and only sends strict when it holds', () => {
    const [weather, search] = prepareChatTools([strictTool, looseTool])
    expect(weather).toMatchObject({ type: 'function', function: { name: 'weather', strict: true } })
    expect(search!.function).not.toHaveProperty('strict')
    expect(search!.function.parameters).toMatchObject({ required: ['query'] })
  })
})
