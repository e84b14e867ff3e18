import { stringify } from 'csv-stringify/sync';

/** A first character that makes a spreadsheet read the cell as a formula (OWASP CSV Injection). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/**
 * A signed plain number, such as rupees() writes ("-500.00") or an E.164 mobile ("+919876543210"):
 * digits alone cannot reference a cell or call a function, so it is left readable.
 */
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/**
 * Keeps a spreadsheet from running a cell as a formula: a string cell starting with = + - @, tab or
 * carriage return (or their full-width forms) gets a leading `'`, as OWASP recommends
 * (https://owasp.org/www-community/attacks/CSV_Injection). OWASP escapes every such cell; we leave
 * JS numbers and signed plain numbers (PLAIN_NUMBER) as they are, so a negative amount stays a
 * number and a mobile does not show a stray quote.
 */
const neutraliseFormula = (cell: string | number): string | number =>
  typeof cell === 'string' && FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;

/**
 * A CSV document (RFC 4180, header row first) from rows of cells; null is an empty cell. Data cells
 * that a spreadsheet would run as formulas are neutralised (neutraliseFormula); the header is ours.
 */
export const toCsv = (header: string[], rows: (string | number | null)[][]): string =>
  stringify([header, ...rows.map((row) => row.map((cell) => neutraliseFormula(cell ?? '')))]);

/** Paise as rupees with two decimals, for spreadsheets ("8814.86"). */
export const rupees = (paise: number): string => (paise / 100).toFixed(2);
