import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/** Every module specifier reachable from `entry` through relative imports. */
function reachableImports(entry: string, seen = new Set<string>(), found = new Set<string>()) {
  if (seen.has(entry)) return found
  seen.add(entry)
  const source = readFileSync(entry, 'utf8')
  for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
    if (specifier!.startsWith('.')) {
      reachableImports(resolve(dirname(entry), specifier!.replace(/\.js$/, '.ts')), seen, found)
    } else {
      found.add(specifier!)
    }
  }
  return found
}

describe('@openmic/core/protocol', () => {
  it('imports no Node built-in and no package, so browsers can load it', () => {
    const entry = resolve(dirname(fileURLToPath(import.meta.url)), 'index.ts')
    const imports = [...reachableImports(entry)]
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))
    expect(imports.filter((name) => builtins.has(name) || name.startsWith('node:'))).toEqual([])
    expect(imports).toEqual([])
  })
})
