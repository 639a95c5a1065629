import type Telnyx from 'telnyx'

/** Options of {@link telnyxStreamingOptions}. */
export interface TelnyxStreamingOptions {
  /** The `wss://` URL of the `TelnyxServer`'s WebSocket. */
  url: string
  /** The call's custom parameters: `TelnyxServer` reads them from `start.custom_parameters`. */
  parameters?: Record<string, string>
}

/**
 * The body of Call Control's `streaming_start` for a `TelnyxServer`: the caller's track, and
 * audio back on the same socket (`stream_bidirectional_mode: "rtp"`, PCMU 8 kHz).
 *
 * @example
 * await telnyx.calls.actions.startStreaming(callControlId, telnyxStreamingOptions({
 *   url: 'wss://example.com/telnyx/stream',
 *   parameters: { caller: from },
 * }))
 */
export function telnyxStreamingOptions(
  options: TelnyxStreamingOptions
): Telnyx.Calls.ActionStartStreamingParams {
  return {
    stream_url: options.url,
    stream_track: 'inbound_track',
    stream_bidirectional_mode: 'rtp',
    stream_bidirectional_codec: 'PCMU',
    custom_parameters: Object.entries(options.parameters ?? {}).map(([name, value]) => ({
      name,
      value,
    })),
  }
}
