/** Options shared by both extraction modes. */
export interface ExtractOptions {
  /** Called with the extracted value when an answer contains one. */
  callback?: (value: string) => void
  /** Store the extracted value in the assistant message's `metadata.extracted`. */
  saveInMetadata?: boolean
}

/** Extract a JSON object written at the end of the answer (`... {"score": 42}`). */
export interface ExtractJsonOptions extends ExtractOptions {
  json: true
  callback?: (value: any) => void
}

/** Extract the text written between two tags at the end of the answer (`... <score>42</score>`). */
export interface ExtractTagOptions extends ExtractOptions {
  startTag: string
  endTag: string
}
