/** One valid example per format that ajv-formats asserts, used to build values and witnesses. */
export const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  date: '2024-02-29',
  time: '12:30:00Z',
  'date-time': '2024-02-29T12:30:00Z',
  'iso-time': '12:30:00Z',
  'iso-date-time': '2024-02-29T12:30:00Z',
  duration: 'P3D',
  uri: 'https://example.com/a',
  'uri-reference': '/a/b',
  'uri-template': 'https://example.com/{id}',
  url: 'https://example.com/a',
  email: 'a@example.com',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  regex: 'a+',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  'json-pointer': '/a/b',
  'json-pointer-uri-fragment': '#/a/b',
  'relative-json-pointer': '0/a',
  byte: 'aGVsbG8=',
  password: 'secret',
  binary: 'bytes',
};

/** A string that no asserted string format accepts except perhaps the permissive ones. */
export const NOT_A_FORMAT = 'not a valid value %';

/**
 * The set of numbers each numeric format of ajv-formats accepts (a table test holds it to the
 * validator): an integer between lo and hi, or any number. A numeric format missing here is
 * decided as unknown.
 */
export const NUMBER_FORMATS: Readonly<Record<string, { integer: boolean; lo: number; hi: number }>> = {
  int32: { integer: true, lo: -(2 ** 31), hi: 2 ** 31 - 1 },
  int64: { integer: true, lo: -Infinity, hi: Infinity },
  float: { integer: false, lo: -Infinity, hi: Infinity },
  double: { integer: false, lo: -Infinity, hi: Infinity },
};
