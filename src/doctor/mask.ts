/** A Warden agent token anywhere in a text. */
const TOKEN = /wdn_[A-Za-z0-9_-]{8,}/g;

/**
 * Every token-shaped value in the doctor's output, shown as `wdn_…` and its last four
 * characters: enough to tell two tokens apart, never enough to use one. Applied to
 * the whole rendered output (human and JSON), so no path — a reference's default, a
 * header echoed in a reason, a server's error text — can print one in full.
 */
export function maskTokens(text: string): string {
  return text.replace(TOKEN, (t) => `wdn_…${t.slice(-4)}`);
}
