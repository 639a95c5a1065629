/** Where Cartesia's API lives, when no `baseURL` is given. */
export const CARTESIA_BASE_URL = 'https://api.cartesia.ai'
