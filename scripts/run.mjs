#!/usr/bin/env node
// One entry point for a fresh machine: `npm test` and `npm run demo` both land here. It makes sure
// pnpm, the Debian packages and the pnpm dependencies are there, then runs the task.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, chmodSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const task = process.argv[2]
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const pnpmVersion = rootPackage.packageManager.replace(/^pnpm@/, '')

function fail(message) {
  console.error(`\n✖ ${message}\n`)
  process.exit(1)
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
    ...options,
  })
  if (result.error) fail(`${command} ${args.join(' ')}: ${result.error.message}`)
  return result.status ?? 1
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number)
  if (major < 20 || (major === 20 && minor < 19))
    fail(`Node.js >= 20.19 is needed (this is ${process.version}).`)
}

/** Puts pnpm on PATH: the installed one if it is the pinned version, else a shim running `npx pnpm@<pinned>`. */
function ensurePnpm() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' })
  if (probe.status === 0 && probe.stdout.trim() === pnpmVersion) return
  const shimDir = join(root, 'node_modules', '.openmic-bin')
  mkdirSync(shimDir, { recursive: true })
  const shim = join(shimDir, 'pnpm')
  writeFileSync(shim, `#!/bin/sh\nexec npx --yes pnpm@${pnpmVersion} "$@"\n`)
  chmodSync(shim, 0o755)
  process.env.PATH = `${shimDir}:${process.env.PATH}`
  console.log(`Using pnpm ${pnpmVersion} through npx.`)
}

function debianPackages() {
  return readFileSync(join(root, 'scripts', 'debian-packages.txt'), 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean)
}

function ensureDebianPackages() {
  const wanted = debianPackages()
  if (wanted.length === 0) return
  const missing = wanted.filter(
    (name) => spawnSync('dpkg', ['-s', name], { stdio: 'ignore' }).status !== 0
  )
  if (missing.length === 0) return
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`
  if (process.getuid?.() !== 0)
    fail(`Missing Debian packages. Install them with:\n  sudo sh -c '${command}'`)
  console.log(`Installing Debian packages: ${missing.join(' ')}`)
  if (run('sh', ['-c', `DEBIAN_FRONTEND=noninteractive ${command}`]) !== 0)
    fail(`Could not install: ${missing.join(' ')}`)
}

function ensureDependencies() {
  const frozen = existsSync(join(root, 'pnpm-lock.yaml')) ? ['--frozen-lockfile'] : []
  if (run('pnpm', ['install', ...frozen]) !== 0) fail('pnpm install failed.')
}

function listReports(dir, found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.git')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) listReports(path, found)
    else if (entry.name === 'vitest-report.json' && dir.endsWith('.artifacts')) found.push(path)
  }
  return found
}

/** The tests of the repository's own scripts, listed here because `node --test` globs differ by Node version. */
function scriptTests() {
  return readdirSync(join(root, 'scripts'), { recursive: true })
    .filter((name) => name.endsWith('.test.mjs'))
    .map((name) => join('scripts', name))
}

/** The failed tests of one Vitest JSON report: file, full name and the first line of the error. */
function failuresOf(json) {
  const failures = []
  for (const file of json.testResults ?? []) {
    const path = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue
      const reason = (test.failureMessages?.[0] ?? '').split('\n')[0]
      failures.push(`${path} > ${test.fullName}\n    ${reason}`)
    }
    // A file that failed to load has no test results, only a message.
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0)
      failures.push(`${path}\n    ${(file.message ?? '').split('\n')[0]}`)
  }
  return failures
}

/** Prints the totals, and the failed tests by name: a CI log's tail is often all a reader sees. */
function printTotals() {
  let passed = 0
  let failed = 0
  let skipped = 0
  const failures = []
  for (const report of listReports(join(root, 'packages')).concat(
    existsSync(join(root, 'apps')) ? listReports(join(root, 'apps')) : []
  )) {
    const json = JSON.parse(readFileSync(report, 'utf8'))
    passed += json.numPassedTests ?? 0
    failed += json.numFailedTests ?? 0
    skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0)
    failures.push(...failuresOf(json))
  }
  if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ✖ ${f}`).join('\n')}`)
  console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
}

function test() {
  execFileSync('sh', ['-c', 'rm -rf packages/*/.artifacts apps/*/.artifacts'], { cwd: root })
  const checks = run('pnpm', [
    'exec',
    'turbo',
    'run',
    'build',
    'typecheck',
    'lint',
    '--output-logs=errors-only',
  ])
  if (checks !== 0) fail('build, typecheck or lint failed (see above).')
  const tests = scriptTests()
  if (tests.length > 0 && run('node', ['--test', ...tests]) !== 0)
    fail('The tests of scripts/ failed (see above).')
  // The built declarations are what users import: their surface must match the reports in
  // packages/*/api/, so that a public API change is always a reviewed change.
  if (run('node', ['scripts/api-report.mjs']) !== 0)
    fail(
      'API reports check failed (see above). If the public API change is intended, run `pnpm api:update` and commit packages/*/api/.'
    )
  if (run('pnpm', ['exec', 'prettier', '--check', '.', '--log-level', 'warn']) !== 0)
    fail('Formatting: run `pnpm format`.')
  const status = run('pnpm', [
    'exec',
    'turbo',
    'run',
    'test',
    '--concurrency=1',
    '--continue',
    '--',
    '--reporter=default',
    '--reporter=json',
    '--outputFile.json=.artifacts/vitest-report.json',
  ])
  printTotals()
  process.exit(status)
}

function demo() {
  if (run('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']) !== 0)
    fail('build failed.')
  process.exit(run('pnpm', ['--filter', '@openmic/demo', 'start']))
}

checkNode()
process.env.TURBO_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'
ensurePnpm()
ensureDebianPackages()
ensureDependencies()
if (task === 'test') test()
else if (task === 'demo') demo()
else fail(`Unknown task "${task}": use test or demo.`)
