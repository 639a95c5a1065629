import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { reportText } from './report-text.mjs'

const generated = [
  '## API Report File for "@openmic/core"',
  '',
  '```ts',
  '',
  '// @public (undocumented)',
  'export function a(): void;',
  '',
  '// @public',
  'export class B {',
  '    // (undocumented)',
  '    c(): void;',
  '    // @deprecated (undocumented)',
  '    d(): void;',
  '}',
  '',
  '// (No @packageDocumentation comment for this package)',
  '',
  '```',
  '',
].join('\r\n')

describe('reportText', () => {
  it('titles a subpath report with the import path users write', () => {
    assert.match(
      reportText(generated, '@openmic/core/protocol'),
      /^## API Report File for "@openmic\/core\/protocol"\n/
    )
  })

  it('keeps tags but drops "(undocumented)", so documenting an export does not fail the check', () => {
    const text = reportText(generated, '@openmic/core')
    assert.doesNotMatch(text, /undocumented|@packageDocumentation|\r/)
    assert.match(text, /\/\/ @public\nexport function a\(\): void;/)
    assert.match(
      text,
      /export class B \{\n {4}c\(\): void;\n {4}\/\/ @deprecated\n {4}d\(\): void;/
    )
  })
})
