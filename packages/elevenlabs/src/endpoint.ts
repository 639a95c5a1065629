/** The API's origin when no `baseURL` is given. */
export const ELEVENLABS_BASE_URL = 'https://api.elevenlabs.io'
