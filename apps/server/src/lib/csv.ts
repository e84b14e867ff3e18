import { IST_OFFSET_MINUTES } from '@kisht/domain/common/time';
import { stringify } from 'csv-stringify/sync';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);

/** A CSV document (RFC 4180, header row first) from rows of cells. */
export const toCsv = (header: string[], rows: (string | number | null)[][]): string =>
  stringify([header, ...rows.map((row) => row.map((cell) => cell ?? ''))]);

/** An instant shown as spec §1 wants it: +05:30, `DD-MM-YYYY hh:mm A`. */
export const formatIst = (at: Date): string =>
  dayjs(at).utcOffset(IST_OFFSET_MINUTES).format('DD-MM-YYYY hh:mm A');

/** A `YYYY-MM-DD` date as `DD-MM-YYYY`. */
export const formatDate = (isoDate: string): string => isoDate.split('-').reverse().join('-');

/** Paise as rupees with two decimals, for spreadsheets ("8814.86"). */
export const rupees = (paise: number): string => (paise / 100).toFixed(2);
