export function onlyDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * Progressive input mask: lays the digits typed so far over `pattern`, where '0' is a digit slot,
 * stopping at the last digit so separators appear only once a digit follows them.
 */
export function applyDigitMask(value: string, pattern: string): string {
  const digits = onlyDigits(value);
  let out = '';
  let next = 0;
  for (const char of pattern) {
    if (next >= digits.length) break;
    if (char === '0') {
      out += digits[next];
      next += 1;
    } else {
      out += char;
    }
  }
  return out;
}
