import { fromBase64 } from '../../src/shared/base64';

/** A strict RFC 4180 reader for the tests: CRLF record ends, quoted fields with doubled quotes. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      for (i += 1; ; i += 1) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"' && text[i + 1] === '"') (field += '"'), (i += 1);
        else if (text[i] === '"') break;
        else field += text[i];
      }
      i += 1;
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') field += text[i++];
    }
    record.push(field);
    field = '';
    if (text[i] === ',') i += 1;
    else if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else throw new Error(`unexpected character at ${i}`);
  }
  return records;
}

export function decodeBase64Text(base64: string): string {
  return new TextDecoder().decode(fromBase64(base64));
}
