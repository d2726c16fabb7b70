/** Digits typed on a numeric keypad become MM/DD/YYYY as they go (the keypad has no slash). */
export function formatDateOfBirth(input: string): string {
  if (/^\d{1,2}\/\d{1,2}\/\d{0,4}$/.test(input) || /^\d{1,2}\/\d{0,2}$/.test(input)) return input;
  const digits = input.replace(/\D/g, '').slice(0, 8);
  if (digits.length <= 2) return digits;
  if (digits.length <= 4) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return `${digits.slice(0, 2)}/${digits.slice(2, 4)}/${digits.slice(4)}`;
}

/** 4/7/1980 is read as 04/07/1980. */
export function normalizeDateOfBirth(input: string): string {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(input.trim());
  return match ? `${match[1]!.padStart(2, '0')}/${match[2]!.padStart(2, '0')}/${match[3]}` : input.trim();
}
