// The club gate's name, place and help, apart from its code (which starts a whole server).

/** Where the committed locks of Warden's own club manifest live, one per tier. */
export const CLUB_LOCK_DIR = 'gate';
export const BLESS_COMMAND = 'npm run gate:bless';

export const CLUB_SUMMARY =
  "Warden gates itself: each tier's view of the club against its committed lock (--bless)";

export const CLUB_USAGE = `Usage: warden gate club [--bless [--reason TEXT]]

Warden gates itself: each tier's view of the club's own tools/list (anonymous, candidate,
member) is compared with its committed lock under ${CLUB_LOCK_DIR}/. Compatible changes pass;
a breaking or unknown change fails until it is blessed in the same commit with
"${BLESS_COMMAND}" (warden gate club --bless), which records it in each lock's audit trail.
`;
