import { drainOnSignal, MicdropCalls } from '@openmic/server'
import { buildApp } from './app.js'
import { DemoConfigError, loadConfig } from './config.js'
import { warmUpProviders } from './providers.js'

async function main() {
  const config = loadConfig()
  const calls = new MicdropCalls()
  // The offline providers load while the server is built. Listening waits for the greeting's
  // voice, as a call is greeted the moment it connects, but not for the recognizer's model (half a
  // second more), which the first call needs only once its caller has spoken.
  const warmUp = warmUpProviders(config)
  const [app] = await Promise.all([buildApp(config, undefined, calls), warmUp.greeting])
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
  await warmUp.firstTurn
}

main().catch((error: unknown) => {
  console.error(error instanceof DemoConfigError ? `\n✖ ${error.message}\n` : error)
  process.exit(1)
})
