import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { toolJsonSchema } from './tool-schema.js'

describe('toolJsonSchema', () => {
  it('converts with z.toJSONSchema, drops $schema and closes objects', () => {
    const { schema, strict } = toolJsonSchema({
      name: 't',
      description: 'd',
      parameters: z.object({
        city: z.string().describe('The city'),
        where: z.object({ lat: z.number() }),
      }),
    })
    expect(schema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city' },
        where: {
          type: 'object',
          properties: { lat: { type: 'number' } },
          required: ['lat'],
          additionalProperties: false,
        },
      },
      required: ['city', 'where'],
      additionalProperties: false,
    })
    expect(strict).toBe(true)
  })

  it('is not strict with optional or defaulted fields, or loose objects', () => {
    expect(
      toolJsonSchema({
        name: 't',
        description: 'd',
        parameters: z.object({ a: z.string().optional() }),
      }).strict
    ).toBe(false)
    expect(
      toolJsonSchema({
        name: 't',
        description: 'd',
        parameters: z.object({ a: z.number().default(1) }),
      }).strict
    ).toBe(false)
    expect(
      toolJsonSchema({ name: 't', description: 'd', parameters: z.looseObject({ a: z.string() }) })
        .strict
    ).toBe(false)
  })

  it('describes a tool without parameters as an empty closed object', () => {
    expect(toolJsonSchema({ name: 't', description: 'd' })).toEqual({
      schema: { type: 'object', properties: {}, additionalProperties: false },
      strict: true,
    })
  })

  it('uses inputSchema when parameters is absent', () => {
    const { schema } = toolJsonSchema({
      name: 't',
      description: 'd',
      inputSchema: z.object({ q: z.string() }),
    })
    expect(schema.required).toEqual(['q'])
  })
})
