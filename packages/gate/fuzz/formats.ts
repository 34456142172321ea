/**
 * Instances of the string formats ajv-formats asserts: valid ones, then near misses a careless
 * generator (or engine) might take for valid.
 */
const FORMAT_INSTANCES: Record<string, { valid: string[]; near: string[] }> = {
  email: { valid: ['a@b.co', 'first.last@example.com'], near: ['a@b', 'ab.co', '@b.co', 'a@@b.co'] },
  uri: {
    valid: ['https://example.com/x', 'urn:isbn:0451450523', 'mailto:a@b.co'],
    near: ['example.com', '/relative', 'http://exa mple.com', 'x'],
  },
  'uri-reference': { valid: ['/relative', 'https://example.com'], near: ['\\\\x', 'a b'] },
  'date-time': {
    valid: ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.123+01:00'],
    near: ['2024-01-02 03:04:05', '2024-01-02T03:04:05', '2024-13-02T03:04:05Z'],
  },
  date: { valid: ['2024-01-02', '2024-02-29'], near: ['2023-02-29', '2024-1-2', '20240102'] },
  time: { valid: ['03:04:05Z', '23:59:59+02:00'], near: ['03:04:05', '25:00:00Z'] },
  uuid: {
    valid: ['123e4567-e89b-12d3-a456-426614174000', 'urn:uuid:123e4567-e89b-12d3-a456-426614174000'],
    near: ['123e4567e89b12d3a456426614174000', '123e4567-e89b-12d3-a456-42661417400g'],
  },
  ipv4: { valid: ['192.168.0.1', '0.0.0.0'], near: ['256.1.1.1', '1.2.3', '01.2.3.4'] },
  ipv6: { valid: ['::1', '2001:db8::1'], near: ['2001:db8:::1', '1.2.3.4'] },
  hostname: { valid: ['example.com', 'a'], near: ['-a.com', 'a_b.com', 'a..b'] },
  duration: { valid: ['P1D', 'PT1H'], near: ['P', '1D'] },
  regex: { valid: ['^a$', '[a-z]+'], near: ['[', '(?<'] },
};

/** The instances of a format, valid first; the empty list for a format this table lacks. */
export function formatInstances(format: string): string[] {
  const f = FORMAT_INSTANCES[format];
  return f ? [...f.valid, ...f.near] : [];
}
