import { drainOnSignal, MicdropCalls } from '@openmic/server'
import { buildApp } from './app.js'
import { DemoConfigError, loadConfig } from './config.js'

async function main() {
  const config = loadConfig()
  const calls = new MicdropCalls()
  const app = await buildApp(config, undefined, calls)
  const address = await app.listen({ host: config.host, port: config.port })
  const url = address
  console.log(
    `\nopenmic demo: open ${url}  (agent: ${config.agent}, stt: ${config.stt}, tts: ${config.tts})\n`
  )
  // A deploy stops this process with SIGTERM: calls finish their answer, are stored, and are
  // closed with 1012; their clients reconnect (to another instance) and go on.
  drainOnSignal(calls, {
    deadlineMs: config.drainDeadlineMs,
    stopAccepting: () => app.server.close(),
    onDrained: () => app.close().then(() => process.exit(0)),
  })
}

main().catch((error: unknown) => {
  console.error(error instanceof DemoConfigError ? `\n✖ ${error.message}\n` : error)
  process.exit(1)
})
