// Runs the real API Extractor on a small package written to a scratch folder, as `npm test` does
// on the repository's packages.
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { apiReports } from './reports.mjs'

let root
const pkg = () => join(root, 'packages', 'demo')

function write(file, text) {
  mkdirSync(dirname(join(pkg(), file)), { recursive: true })
  writeFileSync(join(pkg(), file), text)
}

function writePackage(exports) {
  write('package.json', JSON.stringify({ name: '@scratch/demo', type: 'module', exports }))
}

before(() => {
  root = mkdtempSync(join(tmpdir(), 'api-report-test-'))
  writePackage({ '.': './dist/index.js', './extra': './dist/extra.js' })
  write(
    'tsconfig.build.json',
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        types: [],
      },
    })
  )
  write(
    'dist/index.d.ts',
    '/** Says hello. */\nexport declare function hello(name: string): string;\n'
  )
  write('dist/extra.d.ts', 'export declare const extra: number;\n')
  // A private package is not published, so it has no report.
  mkdirSync(join(root, 'packages', 'app'))
  writeFileSync(join(root, 'packages', 'app', 'package.json'), '{"name":"app","private":true}')
})

after(() => rmSync(root, { recursive: true, force: true }))

describe('apiReports', () => {
  it('asks for the reports of a package that has none, and writes them on update', () => {
    const check = apiReports({ root })
    assert.equal(check.problems.length, 2)
    assert.match(check.problems[0], /^@scratch\/demo: .*index\.api\.md is missing/)
    assert.match(check.problems[1], /^@scratch\/demo\/extra: .*extra\.api\.md is missing/)

    const update = apiReports({ root, update: true })
    assert.deepEqual(update.problems, [])
    assert.deepEqual(update.written.sort(), [
      'packages/demo/api/extra.api.md',
      'packages/demo/api/index.api.md',
    ])
    const report = readFileSync(join(pkg(), 'api', 'index.api.md'), 'utf8')
    assert.match(report, /export function hello\(name: string\): string;/)
    assert.deepEqual(apiReports({ root }), { problems: [], written: [], count: 2 })
  })

  it('fails on a changed surface, naming the entry point and the change, until updated', () => {
    write(
      'dist/index.d.ts',
      'export declare function hello(name: string, loud?: boolean): string;\n'
    )
    const { problems } = apiReports({ root })
    assert.equal(problems.length, 1)
    assert.match(
      problems[0],
      /^@scratch\/demo: the public API differs from packages\/demo\/api\/index\.api\.md/
    )
    assert.match(problems[0], /- export function hello\(name: string\): string;/)
    assert.match(problems[0], /\+ export function hello\(name: string, loud\?: boolean\): string;/)

    apiReports({ root, update: true })
    assert.deepEqual(apiReports({ root }).problems, [])
  })

  it('ignores a doc comment added to an undocumented export, which is not a surface change', () => {
    const documented =
      '/** Greets someone. */\nexport declare function hello(name: string, loud?: boolean): string;\n'
    write('dist/index.d.ts', documented)
    assert.deepEqual(apiReports({ root }).problems, [])
  })

  it('reports a new subpath export without a report, and removes the report of a dropped one', () => {
    writePackage({ '.': './dist/index.js', './more': './dist/extra.js' })
    const { problems } = apiReports({ root })
    assert.deepEqual(
      problems.map((problem) => problem.split(':')[0]),
      ['@scratch/demo/more', '@scratch/demo']
    )
    assert.match(problems[1], /extra\.api\.md is the report of no entry point/)

    apiReports({ root, update: true })
    assert.ok(existsSync(join(pkg(), 'api', 'more.api.md')))
    assert.ok(!existsSync(join(pkg(), 'api', 'extra.api.md')))
    assert.deepEqual(apiReports({ root }).problems, [])
  })

  it('asks for a build when the declarations are missing', () => {
    rmSync(join(pkg(), 'dist', 'extra.d.ts'))
    const { problems } = apiReports({ root })
    assert.deepEqual(problems, [
      '@scratch/demo: packages/demo/dist/extra.d.ts not found; run `pnpm build` first.',
    ])
  })
})
