/**
 * Removes the markdown a language model may write, which a TTS would otherwise read out
 * ("asterisk asterisk"): emphasis and code marks, heading marks, list bullets, and link targets
 * (`[the docs](https://…)` is read "the docs").
 */
export function speakable(sentence: string): string {
  return sentence
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*`]+/g, '')
    .replace(/(^|\n)\s*(#+|[-•+])\s+/g, '$1')
    .replace(/(^|\s)_+|_+(?=\s|[.,!?;:]|$)/g, '$1')
    .trim()
}
