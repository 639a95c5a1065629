/**
 * The attribute names the spans and metrics carry. `gen_ai.*` are the OpenTelemetry GenAI
 * semantic conventions' own; `openmic.*` name what those conventions have no word for (voice).
 */
export const ATTR = {
  conversationId: 'gen_ai.conversation.id',
  operationName: 'gen_ai.operation.name',
  genAiProvider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  errorType: 'error.type',
  transport: 'openmic.transport',
  sttProvider: 'openmic.stt.provider',
  sttModel: 'openmic.stt.model',
  ttsProvider: 'openmic.tts.provider',
  ttsModel: 'openmic.tts.model',
  closeCode: 'openmic.call.close_code',
  endReason: 'openmic.call.end_reason',
  callDuration: 'openmic.call.duration_s',
  callTurns: 'openmic.call.turns',
  turnNumber: 'openmic.turn.number',
  sttMs: 'openmic.turn.stt_ms',
  agentFirstTextMs: 'openmic.turn.agent_first_text_ms',
  ttsFirstAudioMs: 'openmic.turn.tts_first_audio_ms',
  voiceToVoiceMs: 'openmic.turn.voice_to_voice_ms',
  interruptionKind: 'openmic.interruption.kind',
  part: 'openmic.part',
  provider: 'openmic.provider',
} as const
