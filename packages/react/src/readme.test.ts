import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The README's examples, compiled as an app would: `@openmic/react` (this package's source) and
// `@openmic/client` (the built dependency). A name the packages do not export, or one used wrongly,
// fails here.

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..')

describe('README', () => {
  it('has a TSX example that compiles against the packages', () => {
    const readme = readFileSync(join(packageDir, 'README.md'), 'utf8')
    const blocks = [...readme.matchAll(/```tsx\n([\s\S]*?)```/g)].map((match) => match[1]!)
    expect(blocks.length).toBeGreaterThanOrEqual(1)
    // Inside the package folder, so that react and its types resolve as they do for the package
    const dir = join(packageDir, '.artifacts', 'readme')
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    const files = blocks.map((code, i) => {
      const file = join(dir, `example-${i + 1}.tsx`)
      writeFileSync(file, code)
      return file
    })
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.ReactJSX,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      paths: { '@openmic/react': [join(packageDir, 'src', 'index.ts')] },
    })
    const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const line = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line
      return `${line === undefined ? '' : `line ${line + 1}: `}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`
    })
    expect(errors).toEqual([])
  })
})
