/**
 * Comma-separated text as spreadsheets write it (RFC 4180): fields in double quotes may hold commas,
 * line breaks and doubled quotes (""), lines end in CRLF or LF, a byte order mark at the start is
 * skipped. Each record keeps the line number it starts on, so a rejected row can be named.
 */

export type CsvRecord = { line: number; fields: string[] };

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`Line ${line}: ${message}`);
  }
}

export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let fields: string[] = [];
  let field = '';
  let recordLine = 1;
  let quoted = false;
  let wasQuoted = false;
  const endField = () => {
    fields.push(field);
    field = '';
    wasQuoted = false;
  };
  const endRecord = () => {
    endField();
    // A blank line is no record.
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: recordLine, fields });
    fields = [];
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        continue;
      }
      if (c === '\n') line += 1;
      field += c;
      i += 1;
      continue;
    }
    if (c === '"') {
      if (field !== '' || wasQuoted)
        throw new CsvSyntaxError(
          line,
          'a quote (") inside a field that does not start with one; put the whole field in quotes and double the quote',
        );
      quoted = true;
      wasQuoted = true;
      i += 1;
      continue;
    }
    if (c === ',') {
      endField();
      i += 1;
      continue;
    }
    if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line += 1;
      recordLine = line;
      continue;
    }
    if (wasQuoted) throw new CsvSyntaxError(line, 'text after the closing quote of a field; a comma should follow it');
    field += c;
    i += 1;
  }
  if (quoted) throw new CsvSyntaxError(recordLine, 'a quoted field is never closed (a " is missing)');
  if (field !== '' || fields.length > 0 || wasQuoted) endRecord();
  return records;
}
