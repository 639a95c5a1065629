export type { AnswerOutcome } from './AnswerRun.js'
