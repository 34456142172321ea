/**
 * Every refusal the console's edge gives before a page handler runs, in one place: a
 * request from another site, a stale form, an agent token, a form too large, too many
 * sign-in attempts. Pages refuse in their own words after that.
 */
export const REFUSE = {
  origin: {
    code: 'cross_site_request',
    reason: "This request did not come from the console's own pages, so nothing was done.",
    next: 'Open the console and try again from there.',
  },
  csrf: {
    code: 'stale_form',
    reason: 'This form is from another session or has expired, so nothing was done.',
    next: 'Reload the page and submit it again.',
  },
  bearer: {
    code: 'agent_token_at_console',
    reason:
      'The console does not accept agent tokens; it is for people, who sign in with a link or a passkey.',
    next: 'Agents use the MCP endpoint at /mcp.',
  },
  body: {
    code: 'form_too_large',
    reason: 'The form is larger than the console accepts (64 KB).',
    next: 'Shorten what you typed.',
  },
  rate: {
    code: 'too_many_attempts',
    reason: 'Too many sign-in attempts from your address.',
    next: 'Wait a minute and try again.',
  },
} as const;
