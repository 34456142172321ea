// The club gate's name, place and help, apart from its code (which starts a whole server).

/** Where the committed locks of Warden's own club manifest live, one per tier. */
export const CLUB_LOCK_DIR = 'gate';
export const BLESS_COMMAND = 'npm run gate:bless';

export const CLUB_SUMMARY =
  'Warden gates itself: all each tier is served (tools, instructions, resources, skill) against its committed lock (--bless)';

export const CLUB_USAGE = `Usage: warden gate club [--bless [--reason TEXT]]

Warden gates itself: everything the club serves each tier (anonymous, candidate, member) —
tools, server instructions, resources and the club's skill, every file by digest — is
compared with that tier's committed lock under ${CLUB_LOCK_DIR}/. Compatible changes pass; a
breaking or unknown change fails until it is blessed in the same commit with
"${BLESS_COMMAND}" (warden gate club --bless), which rewrites the locks and records
every change in their audit trail.
`;
