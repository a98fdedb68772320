// CSV for the wallet's ledger and the workers' earnings.

/** A CSV field: quoted when needed; text that a spreadsheet would run as a formula is defused. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
