/**
 * Python's `round(x, digits)` for floats: rounds the exact binary value half-to-even, so
 * `round(6.25, 1) == 6.2` (6.25 is exact in binary, a tie) while `round(0.15, 1) == 0.1` (0.15 is
 * stored as 0.1499…). `Math.round(x * 10) / 10` gets both wrong, so the value is decomposed exactly.
 */
export function pythonRound(x: number, digits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const d = Math.max(0, Math.min(20, Math.trunc(digits)));
  const { negative, mantissa, exponent } = decompose(x);
  // x = mantissa * 2^exponent exactly; a non-negative exponent means x is an integer already.
  if (exponent >= 0) return x;
  const scaled = mantissa * 10n ** BigInt(d);
  const shift = BigInt(-exponent);
  let quotient = scaled >> shift;
  const remainder = scaled - (quotient << shift);
  const half = 1n << (shift - 1n);
  if (remainder > half || (remainder === half && (quotient & 1n) === 1n)) quotient += 1n;
  // Through a decimal string so the last step is one correctly rounded conversion, as in CPython.
  const digitsText = quotient.toString().padStart(d + 1, '0');
  const decimal = d === 0 ? digitsText : `${digitsText.slice(0, -d)}.${digitsText.slice(-d)}`;
  const value = Number(decimal);
  return negative ? -value : value;
}

function decompose(x: number): { negative: boolean; mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  // Subnormals have no implicit leading bit and the minimum exponent.
  return biased === 0
    ? { negative, mantissa: fraction, exponent: -1074 }
    : { negative, mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}
