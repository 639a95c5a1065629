/** Debian packages providing pocketsphinx and its US-English model. */
export const STT_PACKAGES = ['libpocketsphinx3', 'pocketsphinx-en-us'] as const

/** Debian package providing flite and its voices. */
export const TTS_PACKAGES = ['libflite1'] as const
