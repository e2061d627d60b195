import fc from 'fast-check';

/** Text that has broken parsers, encoders, databases and log files before. */
const NASTY_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uDBFF\uDFFF',
  '\u202Eevil\u202C',
  '\u200F\u200E\u061C',
  '\uFEFF',
  '\uFFFF\uFFFE',
  'e\u0301\u0301\u0301',
  '👨‍👩‍👧‍👦',
  '\r\n\t\u000b\u000c',
  '\u2028\u2029',
  '../../etc/passwd',
  '..\\..\\windows',
  '/',
  '.',
  '..',
  '%2F',
  '%00',
  '%',
  '%zz',
  '\\',
  "'; DROP TABLE audit_log; --",
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'true',
  '0',
  '-1',
  'NaN',
  '1e999',
  '0x10',
  '[]',
  '{}',
];

/** Strings that are base64 to a careless eye: bad padding, bad alphabet, white space, url-safe. */
const BAD_BASE64 = [
  'A',
  'AA',
  'AAA',
  'A===',
  '====',
  '=AAA',
  'QUJD=',
  'QUJ=D',
  'QU JD',
  'QUJD\n',
  '-_-_',
  'QUJD!',
  '\u0000QUJD',
  `${'AAAA'.repeat(3)}=`,
];

export const nastyString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NASTY_TEXT, ...BAD_BASE64) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    // Any UTF-16 code units, lone surrogates included.
    {
      weight: 2,
      arbitrary: fc.string({
        unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
        maxLength: 40,
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom(1_000, 70_000, 1_100_000).map((n) => 'x'.repeat(n)) },
  );

/** Numbers at and past every edge that JSON can carry. */
export const nastyNumber = (): fc.Arbitrary<number> =>
  fc.oneof(
    fc.constantFrom(
      0,
      -0,
      -1,
      1,
      0.5,
      -0.5,
      2 ** 31,
      2 ** 32,
      2 ** 53 - 1,
      2 ** 53,
      2 ** 53 + 2,
      -(2 ** 53),
      1e21,
      1e308,
      -1e308,
      Number.MIN_VALUE,
      Number.MAX_VALUE,
    ),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );

/** A value of any JSON type, for a field that expects another. */
export const anyJson = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constant(null),
    fc.boolean(),
    nastyNumber(),
    nastyString(),
    fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxKeys: 3 }),
  );

/** Query and path text: what a URL can carry as-is, broken escapes and encoded separators included. */
export const rawUrlText = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '..',
      '.',
      '%2e%2e',
      '%2F',
      '%2f..%2f',
      '%5C',
      '%00',
      '%',
      '%zz',
      '%C0%AF',
      '%ED%A0%80',
      '%FF%FE',
      '%E2%80%AE',
      '+',
      '%20',
      ';a=b',
      'a%0Ab',
      '%u0041',
    ),
    fc.string({
      unit: fc.constantFrom('a', '.', '/', '%', '2', 'F', 'f', 'e', '0', ';', '=', '&', '?', '#', '+', ' '),
      maxLength: 20,
    }),
    fc.constantFrom(300, 5_000, 70_000).map((n) => 'a'.repeat(n)),
  );
