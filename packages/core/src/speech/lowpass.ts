/** Stopband attenuation of the resampling filter, in dB: aliases end up below the noise of speech. */
const STOPBAND_DB = 70

/**
 * A Kaiser-windowed sinc low-pass filter for resampling by `up / down`, split into `up` phases
 * (polyphase form: only the taps that meet a real input sample are ever multiplied).
 *
 * The cutoff sits just below half the lower of the two rates, with a transition band of a tenth of
 * it: everything the output cannot carry is removed before it could fold back as an alias.
 * `phases[p][k]` is the tap `p + k * up` of the filter, scaled by `up` so that the gain is 1;
 * `length` is the filter's length (odd: its centre, `(length - 1) / 2`, is the delay in upsampled
 * samples).
 */
export function designResamplingFilter(
  up: number,
  down: number
): { phases: Float64Array[]; length: number } {
  // Frequencies as fractions of the upsampled rate.
  const nyquist = 0.5 / Math.max(up, down)
  const transition = nyquist * 0.1
  const cutoff = nyquist - transition / 2
  const beta = 0.1102 * (STOPBAND_DB - 8.7)
  const wanted = Math.ceil((STOPBAND_DB - 8) / (2.285 * 2 * Math.PI * transition)) + 1
  const tapsPerPhase = Math.ceil(wanted / up)
  // An odd length puts the centre on a whole sample, so the delay can be taken out exactly; the
  // tap left over, if any, stays zero.
  const length = tapsPerPhase * up - ((tapsPerPhase * up) % 2 === 0 ? 1 : 0)
  const center = (length - 1) / 2
  const i0Beta = besselI0(beta)
  const phases = Array.from({ length: up }, () => new Float64Array(tapsPerPhase))
  for (let n = 0; n < length; n++) {
    const x = n - center
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x)
    const ratio = (2 * n) / (length - 1) - 1
    const window = besselI0(beta * Math.sqrt(Math.max(0, 1 - ratio * ratio))) / i0Beta
    phases[n % up]![Math.floor(n / up)] = up * sinc * window
  }
  return { phases, length }
}

/** The modified Bessel function of the first kind, order 0 (its power series). */
function besselI0(x: number): number {
  let sum = 1
  let term = 1
  const quarterSquare = (x * x) / 4
  for (let k = 1; k < 50; k++) {
    term *= quarterSquare / (k * k)
    sum += term
    if (term < sum * 1e-12) break
  }
  return sum
}
