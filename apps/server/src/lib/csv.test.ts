import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

/** The data row of a one-column CSV, as written. */
const cell = (value: string | number | null) => toCsv(['h'], [[value]]).split('\n')[1];

describe('toCsv', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
    ['-2+3', "'-2+3"],
    ['+1.5.5', "'+1.5.5"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1+1', "'\t=1+1"],
    ['\uFF1D1+1', "'\uFF1D1+1"],
  ])('neutralises %j as a text cell', (value, written) => {
    expect(cell(value)).toBe(written);
  });

  it('neutralises a leading carriage return and still quotes it', () => {
    expect(toCsv(['h'], [['\r=1+1']])).toBe('h\n"\'\r=1+1"\n');
  });

  it('keeps a formula-looking cell quoted per RFC 4180 after neutralising it', () => {
    expect(cell('=HYPERLINK("http://evil.example","x")')).toBe(
      '"\'=HYPERLINK(""http://evil.example"",""x"")"',
    );
  });

  it.each<[string | number | null, string]>([
    ['Priya', 'Priya'],
    ['a=b', 'a=b'],
    [-500, '-500'],
    ['-500.00', '-500.00'],
    ['+919876543210', '+919876543210'],
    ['8814.86', '8814.86'],
    [null, ''],
  ])('leaves %j as it is', (value, written) => {
    expect(cell(value)).toBe(written);
  });

  it('quotes commas, quotes and newlines (RFC 4180)', () => {
    expect(toCsv(['a', 'b', 'c'], [['x, y', 'say "hi"', 'one\ntwo']])).toBe(
      'a,b,c\n"x, y","say ""hi""","one\ntwo"\n',
    );
  });
});
