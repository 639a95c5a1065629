import { DEFAULT_MODEL_DIR } from '../native/pocketsphinx.js'

/** Options of {@link LocalSTT}: where the model is and extra pocketsphinx decoder arguments. */
export interface LocalSTTOptions {
  /**
   * Folder holding `en-us/` (acoustic model), `en-us.lm.bin` and `cmudict-en-us.dict` (default
   * {@link DEFAULT_MODEL_DIR}).
   */
  modelDir?: string
  /**
   * Extra decoder arguments, as on the pocketsphinx command line without the dash
   * (`{ beam: '1e-60' }`). They override openmic's defaults.
   */
  args?: Record<string, string>
}
