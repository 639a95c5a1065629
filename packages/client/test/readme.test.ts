import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, packageDir } from './browser/harness.js'

// The README's TypeScript examples, compiled against the built package as an app would import it:
// an example that uses a name the package does not export, or uses it wrongly, fails here.

function examples(): string[] {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8')
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!)
}

function compile(files: string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  })
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${diagnostic.file.fileName.split('/').at(-1)}:${
          diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1
        } `
      : ''
    return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
  })
}

describe('README', () => {
  beforeAll(() => ensureBuilt())

  it('has TypeScript examples that compile against the package', () => {
    const blocks = examples()
    expect(blocks.length).toBeGreaterThanOrEqual(2)
    // Inside the package folder, so that `@openmic/client` resolves to this package's exports
    const dir = join(packageDir, '.artifacts', 'readme')
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    const files = blocks.map((code, i) => {
      const file = join(dir, `example-${i + 1}.ts`)
      // What the snippets take as given
      writeFileSync(file, `${code}\nexport {}\ndeclare const url: string\n`)
      return file
    })
    expect(compile(files)).toEqual([])
  })
})
