// @echogarden/rnnoise-wasm ships no types: the part of its Emscripten module openmic uses.
declare module '@echogarden/rnnoise-wasm' {
  const RNNoise: () => Promise<import('./load-rnnoise.js').RnnoiseModule>
  export default RNNoise
}
