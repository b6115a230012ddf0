import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv } from './csv-text.js';

describe('parseCsv', () => {
  it('reads fields, quoted commas, doubled quotes and line breaks inside quotes, with each record’s first line', () => {
    const text = '\uFEFFid,name,notes\r\n1,"Rice, parboiled","says ""hi"""\n2,Dal,"two\nlines"\n\n3,Roti,\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['id', 'name', 'notes'] },
      { line: 2, fields: ['1', 'Rice, parboiled', 'says "hi"'] },
      { line: 3, fields: ['2', 'Dal', 'two\nlines'] },
      { line: 6, fields: ['3', 'Roti', ''] },
    ]);
  });

  it('keeps the last record without a final line break and an empty quoted field', () => {
    expect(parseCsv('a,b\n"",x')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['', 'x'] },
    ]);
  });

  it('names the line of a quote left open or misplaced', () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3')).toThrow(new CsvSyntaxError(2, 'a quoted field is never closed (a " is missing)'));
    expect(() => parseCsv('a,b\n1,x"y')).toThrow(/^Line 2: a quote/);
    expect(() => parseCsv('a,b\n1,"x"y')).toThrow(/^Line 2: text after the closing quote/);
  });
});
