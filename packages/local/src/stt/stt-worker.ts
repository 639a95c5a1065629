import { workerData } from 'node:worker_threads'
import { PocketsphinxDecoder } from '../native/pocketsphinx.js'
import { serve } from '../worker/serve.js'
import type { SttRequest, SttResponse, SttWorkerData } from './messages.js'

// One decoder for the worker's life: the model loads once, every utterance reuses it.
const decoder = new PocketsphinxDecoder((workerData as SttWorkerData).options)
let current: number | undefined

serve<SttRequest, SttResponse>((request, reply) => {
  try {
    if (request.type === 'start') {
      if (current !== undefined) decoder.end()
      current = undefined
      decoder.start()
      current = request.utt
      return
    }
    if (request.utt !== current) return
    if (request.type === 'audio') decoder.process(request.samples)
    else {
      current = undefined
      const text = decoder.end()
      if (request.type === 'end') reply({ type: 'transcript', utt: request.utt, text })
    }
  } catch (error) {
    current = undefined
    reply({ type: 'error', utt: request.utt, message: (error as Error).message })
  }
})
