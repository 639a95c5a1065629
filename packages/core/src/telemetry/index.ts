export type {
  FallbackSwitch,
  ModelCallReport,
  ModelCallRetry,
  ModelUsage,
  ToolCallReport,
} from './reports.js'
