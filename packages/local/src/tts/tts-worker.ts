import { workerData } from 'node:worker_threads'
import { MICDROP_AUDIO_FORMAT } from '@openmic/core/provider'
import { FliteSynthesizer } from '../native/flite.js'
import { serve } from '../worker/serve.js'
import type { TtsRequest, TtsResponse, TtsWorkerData } from './messages.js'
import { resamplePcm16 } from './resample.js'

// One synthesizer for the worker's life: the voice loads once.
const flite = new FliteSynthesizer((workerData as TtsWorkerData).voice)

serve<TtsRequest, TtsResponse>((request, reply) => {
  try {
    const wave = flite.synthesize(request.text)
    const samples = resamplePcm16(wave.samples, wave.sampleRate, MICDROP_AUDIO_FORMAT.sampleRate)
    reply({ type: 'audio', id: request.id, samples }, [samples.buffer])
  } catch (error) {
    reply({ type: 'error', id: request.id, message: (error as Error).message })
  }
})
