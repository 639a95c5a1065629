import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, extname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { CHROMIUM_PATH, chromiumArgs, hasChromium } from '@openmic/testing'
import { chromium } from 'playwright-core'
import type { Browser, Page } from 'playwright-core'
import { makeVoiceWav } from './wav.js'

/** This package's folder (found from this file, also when it is bundled elsewhere, as by the bench). */
export const packageDir = findPackageDir(dirname(fileURLToPath(import.meta.url)))
const here = join(packageDir, 'test', 'browser')
const artifacts = join(packageDir, '.artifacts', 'browser')
/** Browsers launched by this process: each generated microphone file gets its own name. */
let launches = 0

export { hasChromium }

function findPackageDir(dir: string): string {
  const manifest = join(dir, 'package.json')
  if (
    existsSync(manifest) &&
    JSON.parse(readFileSync(manifest, 'utf8')).name === '@openmic/client'
  ) {
    return dir
  }
  const parent = dirname(dir)
  if (parent === dir) throw new Error('@openmic/client package folder not found')
  return findPackageDir(parent)
}

/** Builds `dist/` when it is missing or older than `src/` (the page loads the built package). */
export function ensureBuilt(): void {
  const dist = join(packageDir, 'dist', 'index.js')
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
        entry.isDirectory()
          ? newest(join(dir, entry.name))
          : statSync(join(dir, entry.name)).mtimeMs
      )
    )
  if (existsSync(dist) && statSync(dist).mtimeMs >= newest(join(packageDir, 'src'))) return
  execFileSync('pnpm', ['run', 'build'], { cwd: packageDir, stdio: 'inherit' })
}

/** Bundles the test page with the built client into one ESM file. */
async function bundlePage(): Promise<string> {
  ensureBuilt()
  const result = await build({
    entryPoints: [join(here, 'page', 'app.js')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    plugins: [
      {
        name: 'built-client',
        setup(build) {
          // The page imports the package by name: point it (and its subpath) at dist/
          build.onResolve({ filter: /^@openmic\/client(\/silero)?$/ }, (args) => ({
            path: join(
              packageDir,
              'dist',
              args.path.endsWith('/silero') ? 'silero.js' : 'index.js'
            ),
          }))
        },
      },
    ],
    logLevel: 'silent',
  })
  return result.outputFiles[0]!.text
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
}

/** Serves the test page, its bundle, and the Silero VAD's model and wasm files, on 127.0.0.1. */
export async function servePage(): Promise<{
  url: string
  requests: string[]
  close: () => Promise<void>
}> {
  const requests: string[] = []
  const bundle = await bundlePage()
  const html = readFileSync(join(here, 'page', 'index.html'))
  // pnpm keeps onnxruntime-web beside vad-web, in the real (not symlinked) folder
  const vadPackage = realpathSync(join(packageDir, 'node_modules', '@ricky0123', 'vad-web'))
  const vadDist = join(vadPackage, 'dist')
  const ortDist = join(vadPackage, '..', '..', 'onnxruntime-web', 'dist')
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    requests.push(path)
    const send = (body: Buffer | string, type: string) => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' })
      res.end(body)
    }
    if (path === '/' || path === '/index.html') return send(html, TYPES['.html']!)
    if (path === '/app.js') return send(bundle, TYPES['.js']!)
    if (path === '/favicon.ico') return void res.writeHead(204).end()
    if (path.startsWith('/vad/')) {
      const name = path.slice('/vad/'.length)
      for (const dir of [vadDist, ortDist]) {
        const file = join(dir, name)
        if (!name.includes('..') && existsSync(file)) {
          return send(readFileSync(file), TYPES[extname(file)] ?? 'application/octet-stream')
        }
      }
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  }
}

/**
 * Launches headless Chromium with a fake microphone that plays `wav` in a loop: a file, or the
 * WAV data itself (default: the generated voice of {@link makeVoiceWav}).
 */
export async function launchBrowser(wav: string | Buffer = makeVoiceWav()): Promise<Browser> {
  if (typeof wav !== 'string') {
    mkdirSync(artifacts, { recursive: true })
    const data = wav
    wav = join(artifacts, `voice-${process.pid}-${launches++}.wav`)
    writeFileSync(wav, data)
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: chromiumArgs({ fakeAudioFile: wav }),
  })
}

/**
 * Opens the test page in a fresh context, forwarding its console errors to the test output.
 * `requests` lists every URL the page asks for (scripts, workers and worklets included).
 */
export async function openPage(
  browser: Browser,
  url: string
): Promise<{ page: Page; requests: string[] }> {
  const context = await browser.newContext()
  const requests: string[] = []
  context.on('request', (request) => requests.push(request.url()))
  const page = await context.newPage()
  page.on('pageerror', (error) => console.error('[page error]', error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') console.error('[page console]', message.text())
  })
  await page.goto(url)
  await page.waitForFunction(() => 'openmic' in window)
  return { page, requests }
}
