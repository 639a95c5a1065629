// Runs bench/main.ts: bundles it with esbuild (packages stay external) and imports the result.
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const here = dirname(fileURLToPath(import.meta.url))
const out = join(here, '..', '.artifacts', 'bench', 'main.mjs')
mkdirSync(dirname(out), { recursive: true })
await build({
  entryPoints: [join(here, 'main.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: out,
  logLevel: 'warning',
})
await import(pathToFileURL(out).href)
