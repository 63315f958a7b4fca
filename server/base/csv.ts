// CSV as RFC 4180 writes it: a field holding a comma, a double quote, CR or LF is quoted, its
// quotes doubled; every record (the header too) ends with CRLF. Empty for null and undefined.

export type CsvValue = string | number | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}
