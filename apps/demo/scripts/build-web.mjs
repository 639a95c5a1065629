// Bundles the web page (web/main.tsx: React, @openmic/client, @openmic/react) into public/assets/.
// Silero VAD (vad-web + onnxruntime-web) is split into its own chunk, loaded only when chosen.
import { build } from 'esbuild'
import { rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = join(root, 'public', 'assets')
rmSync(outdir, { recursive: true, force: true })
await build({
  entryPoints: [join(root, 'web', 'main.tsx')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  jsx: 'automatic',
  minify: true,
  sourcemap: true,
  logLevel: 'warning',
})
