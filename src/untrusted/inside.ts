import { closeMarker, openMarkerPrefix } from './format.ts';

/**
 * True iff every occurrence of `needle` in `haystack` lies inside the payload of a
 * block opened and closed with `boundary`. Lets a test plant a canary in every
 * member-writable field and prove it only ever reaches a reader wrapped. Vacuously
 * true when `needle` does not occur: assert its presence separately.
 */
export function onlyInsideWrappers(haystack: string, needle: string, boundary: string): boolean {
  if (needle.length === 0) throw new RangeError('onlyInsideWrappers: needle must not be empty');
  const regions = payloadRegions(haystack, boundary);
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    if (!regions.some(([start, stop]) => at >= start && end <= stop)) return false;
  }
  return true;
}

/** [start, end) offsets of each payload between an opening and its closing marker. */
function payloadRegions(haystack: string, boundary: string): Array<[number, number]> {
  const prefix = openMarkerPrefix(boundary);
  const closer = closeMarker(boundary);
  const regions: Array<[number, number]> = [];
  for (let pos = haystack.indexOf(prefix); pos >= 0; pos = haystack.indexOf(prefix, pos)) {
    const openEnd = haystack.indexOf('⟧', pos + prefix.length);
    if (openEnd < 0) break;
    const start = openEnd + 1;
    const stop = haystack.indexOf(closer, start);
    if (stop < 0) break;
    regions.push([start, stop]);
    pos = stop + closer.length;
  }
  return regions;
}
