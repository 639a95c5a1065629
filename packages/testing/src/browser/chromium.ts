import { existsSync } from 'node:fs'

/** Debian's Chromium (`apt-get install chromium`), or `$CHROMIUM_PATH`. Never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Whether the Chromium at {@link CHROMIUM_PATH} is installed. */
export const hasChromium = existsSync(CHROMIUM_PATH)

export interface ChromiumArgsOptions {
  /** A WAV file the fake microphone plays. */
  fakeAudioFile?: string
  /** Play it in a loop (Chromium's default) or once. Default true. */
  loop?: boolean
}

/**
 * Launch arguments for headless Chromium in voice tests: no sandbox (tests run as root), no
 * network chatter (the machine has no internet), no throttling of background timers, autoplay
 * allowed, and a fake microphone and camera granted without a prompt.
 *
 * @example
 * chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumArgs({ fakeAudioFile: wav }) })
 */
export function chromiumArgs(options: ChromiumArgsOptions = {}): string[] {
  const args = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--autoplay-policy=no-user-gesture-required',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
  ]
  if (options.fakeAudioFile) {
    const once = options.loop === false ? '%noloop' : ''
    args.push(`--use-file-for-fake-audio-capture=${options.fakeAudioFile}${once}`)
  }
  return args
}
