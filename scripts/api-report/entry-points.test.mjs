import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { entryPoints, reportName, typesOf } from './entry-points.mjs'

describe('entryPoints', () => {
  it('gives every subpath of the exports map its own report, named after the subpath', () => {
    const entries = entryPoints({
      name: '@openmic/core',
      exports: {
        '.': { types: './dist/index.d.ts', default: './dist/index.js' },
        './protocol': { types: './dist/protocol/index.d.ts', default: './dist/protocol/index.js' },
        './provider': { types: './dist/provider.d.ts', default: './dist/provider.js' },
        './package.json': './package.json',
      },
    })
    assert.deepEqual(entries, [
      { subpath: '.', importPath: '@openmic/core', name: 'index', types: 'dist/index.d.ts' },
      {
        subpath: './protocol',
        importPath: '@openmic/core/protocol',
        name: 'protocol',
        types: 'dist/protocol/index.d.ts',
      },
      {
        subpath: './provider',
        importPath: '@openmic/core/provider',
        name: 'provider',
        types: 'dist/provider.d.ts',
      },
    ])
  })

  it('reads a root-only exports written as a path or as conditions', () => {
    for (const exports of ['./dist/index.js', { import: './dist/index.js' }]) {
      assert.deepEqual(
        entryPoints({ name: 'x', exports }).map((entry) => [entry.subpath, entry.types]),
        [['.', 'dist/index.d.ts']]
      )
    }
  })

  it('falls back to "types" when there is no exports map', () => {
    assert.deepEqual(
      entryPoints({ name: 'x', types: './lib/main.d.ts' }).map((entry) => entry.types),
      ['lib/main.d.ts']
    )
  })

  it('skips subpaths that are not modules or are blocked', () => {
    const entries = entryPoints({
      name: 'x',
      exports: { '.': './dist/index.js', './styles.css': './dist/a.css', './internal': null },
    })
    assert.deepEqual(
      entries.map((entry) => entry.subpath),
      ['.']
    )
  })

  it('refuses what a report cannot lock: patterns, modules without declarations, name clashes', () => {
    assert.throws(() => entryPoints({ name: 'x', exports: { './*': './dist/*.js' } }), /pattern/)
    assert.throws(
      () => entryPoints({ name: 'x', exports: { './worklet': './dist/worklet.txt' } }),
      /no declaration file/
    )
    assert.throws(
      () => entryPoints({ name: 'x', exports: { './a/b': './dist/1.js', './a-b': './dist/2.js' } }),
      /share the report a-b\.api\.md/
    )
  })
})

describe('typesOf', () => {
  it('finds the declarations of nested conditions and of .mjs/.cjs targets', () => {
    assert.equal(typesOf({ import: { types: './a.d.mts', default: './a.mjs' } }), './a.d.mts')
    assert.equal(typesOf({ require: './a.cjs' }), './a.d.cts')
    assert.equal(typesOf(['./a.js']), './a.d.ts')
  })
})

describe('reportName', () => {
  it('names the root index and flattens nested subpaths', () => {
    assert.equal(reportName('.'), 'index')
    assert.equal(reportName('./conformance'), 'conformance')
    assert.equal(reportName('./a/b'), 'a-b')
  })
})
