import { buildApp } from './app.js'
import { DemoConfigError, loadConfig } from './config.js'

async function main() {
  const config = loadConfig()
  const app = await buildApp(config)
  const address = await app.listen({ host: config.host, port: config.port })
  const url = address
  console.log(
    `\nopenmic demo: open ${url}  (agent: ${config.agent}, stt: ${config.stt}, tts: ${config.tts})\n`
  )
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void app.close().then(() => process.exit(0)))
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof DemoConfigError ? `\n✖ ${error.message}\n` : error)
  process.exit(1)
})
