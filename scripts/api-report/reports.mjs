// Compares (or rewrites) the API reports of every published package under `<root>/packages`.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { entryPoints, reportFileName } from './entry-points.mjs'
import { extractReports } from './extract.mjs'

/**
 * The published packages: every non-private folder of `<root>/packages` with a package.json.
 *
 * @param root - the repository folder
 * @param only - package names to keep; all when empty
 */
export function publishedPackages(root, only = []) {
  const dir = join(root, 'packages')
  const found = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'package.json')))
    .map((entry) => {
      const packageDir = join(dir, entry.name)
      return {
        packageDir,
        json: JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')),
      }
    })
    .filter(({ json }) => !json.private)
    .sort((a, b) => a.json.name.localeCompare(b.json.name))
  const unknown = only.filter((name) => !found.some(({ json }) => json.name === name))
  if (unknown.length > 0) throw new Error(`Not a published package: ${unknown.join(', ')}`)
  return only.length === 0 ? found : found.filter(({ json }) => only.includes(json.name))
}

/**
 * Checks that every entry point's report matches the built declarations, or with `update` writes
 * the reports that differ and removes those of entry points that left `exports`.
 *
 * @param options - `root` (repository folder), `update`, `only` (package names) and `warn` (sink
 *   for API Extractor's warnings)
 * @returns `problems` (one message each, empty when all is well), `written` (changed files,
 *   relative to root) and `count` (entry points looked at)
 */
export function apiReports({ root, update = false, only = [], warn = () => {} }) {
  const problems = []
  const written = []
  let count = 0
  for (const { packageDir, json } of publishedPackages(root, only)) {
    const entries = entryPoints(json)
    const unbuilt = entries.filter((entry) => !existsSync(join(packageDir, entry.types)))
    if (unbuilt.length > 0) {
      const files = unbuilt.map((entry) => relative(root, join(packageDir, entry.types)))
      problems.push(`${json.name}: ${files.join(', ')} not found; run \`pnpm build\` first.`)
      continue
    }

    const apiDir = join(packageDir, 'api')
    for (const { entry, text, errors, warnings } of extractReports(packageDir, entries)) {
      count++
      for (const warning of warnings) warn(`${entry.importPath}: ${warning}`)
      if (errors.length > 0) {
        problems.push(`${entry.importPath}: API Extractor failed:\n${indent(errors.join('\n'))}`)
        continue
      }
      const file = join(apiDir, reportFileName(entry))
      const current = existsSync(file) ? readFileSync(file, 'utf8') : undefined
      if (current === text) continue
      if (update) {
        mkdirSync(apiDir, { recursive: true })
        writeFileSync(file, text)
        written.push(relative(root, file))
      } else if (current === undefined) {
        problems.push(`${entry.importPath}: its API report ${relative(root, file)} is missing.`)
      } else {
        problems.push(
          `${entry.importPath}: the public API differs from ${relative(root, file)}:\n` +
            indent(firstDifference(current, text))
        )
      }
    }

    // A report whose entry point left `exports` would lock a surface nobody can import any more.
    const kept = new Set(entries.map(reportFileName))
    const stale = existsSync(apiDir)
      ? readdirSync(apiDir).filter((name) => name.endsWith('.api.md') && !kept.has(name))
      : []
    for (const name of stale) {
      const file = join(apiDir, name)
      if (update) {
        rmSync(file)
        written.push(relative(root, file))
      } else {
        problems.push(`${json.name}: ${relative(root, file)} is the report of no entry point.`)
      }
    }
  }
  return { problems, written, count }
}

/**
 * Shows where the checked-in report and the generated one part, so that a failing CI log tells
 * what changed without a checkout.
 */
export function firstDifference(current, generated, limit = 12) {
  const before = current.split('\n')
  const after = generated.split('\n')
  let start = 0
  while (start < before.length && before[start] === after[start]) start++
  let endBefore = before.length - 1
  let endAfter = after.length - 1
  while (endBefore >= start && endAfter >= start && before[endBefore] === after[endAfter]) {
    endBefore--
    endAfter--
  }
  const removed = before.slice(start, endBefore + 1)
  const added = after.slice(start, endAfter + 1)
  const lines = [
    ...removed.slice(0, limit).map((line) => `- ${line}`),
    ...added.slice(0, limit).map((line) => `+ ${line}`),
  ]
  const more = removed.length > limit || added.length > limit ? '\n  ...' : ''
  return `at line ${start + 1}:\n${lines.join('\n')}${more}`
}

function indent(text) {
  return text.replace(/^/gm, '    ')
}
