/**
 * Where and how a provider's streaming connection is opened: what every provider's connection
 * class takes (`new AcmeSTTConnection(options, events)`), plus its own fields.
 */
export interface ProviderConnectionOptions {
  /** The WebSocket URL (see `webSocketURL`). */
  url: string
  /** The provider's key, sent in a header, never in the URL. */
  apiKey: string
  /** Past it without the connection being ready, it is given up with a timeout error. */
  connectionTimeoutMs: number
}

/**
 * What every provider's connection tells its owner, plus its own events (its messages, read into
 * the provider's terms).
 *
 * @typeParam E - the provider's error class.
 */
export interface ProviderConnectionEvents<E extends Error = Error> {
  /**
   * The connection is over (refused, timed out, closed by either side, reset, or failed in-band),
   * with the provider's error saying why; called once, never after `dispose()`.
   */
  onClosed(error: E): void
  log(...message: unknown[]): void
}
