import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { prepareMistralTools } from './prepare-mistral-tools.js'

describe('prepareMistralTools', () => {
  it('describes each tool as a Mistral function with its JSON Schema', () => {
    const tools = prepareMistralTools([
      {
        name: 'weather',
        description: 'Weather of a city',
        parameters: z.object({ city: z.string().describe('City name') }),
      },
      {
        name: 'search',
        description: 'Search',
        parameters: z.object({ query: z.string(), limit: z.number().optional() }),
      },
      { name: 'end_call', description: 'End the call' },
    ])
    expect(tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'Weather of a city',
          strict: true,
          parameters: {
            type: 'object',
            properties: { city: { type: 'string', description: 'City name' } },
            required: ['city'],
            additionalProperties: false,
          },
        },
      },
      expect.objectContaining({
        function: expect.objectContaining({ name: 'search', strict: false }),
      }),
      {
        type: 'function',
        function: {
          name: 'end_call',
          description: 'End the call',
          strict: true,
          parameters: { type: 'object', properties: {}, additionalProperties: false },
        },
      },
    ])
  })
})
