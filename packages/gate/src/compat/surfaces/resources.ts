import { sameJson } from '../hash.ts';
import type { RuleId } from '../rules.ts';
import type { Finding, JsonObject } from '../types.ts';
import { otherFields, text } from './fields.ts';
import { byKey, compareKeyed, type ItemReport } from './report.ts';
import { textChange } from './text.ts';

const RESOURCE_JUDGED = new Set(['uri', 'description', 'mimeType']);
const TEMPLATE_JUDGED = new Set(['name', 'uriTemplate', 'description', 'mimeType']);

/**
 * Resources by URI (the URI is what a client reads): one removed breaks, and so does a new
 * `mimeType`, since readers parse by it; names, titles and descriptions are text.
 */
export function compareResources(
  olds: readonly JsonObject[],
  news: readonly JsonObject[],
  strict: boolean,
): ItemReport[] {
  return compareKeyed(
    byKey(olds, (r) => r.uri),
    byKey(news, (r) => r.uri),
    {
      kind: 'resource',
      added: 'resource-added',
      removed: 'resource-removed',
      compare: (before, after) => [
        ...mimeType(before, after, 'resource-mime-type-changed'),
        ...textChange(
          'resource-description-changed',
          '/description',
          text(before.description),
          text(after.description),
          strict,
        ),
        ...otherFields(before, after, RESOURCE_JUDGED, 'resource-field-changed'),
      ],
    },
  );
}

/**
 * Resource templates by name (by their template when unnamed): a removed template, or one whose
 * URI template changed, breaks every URI a client built from it.
 */
export function compareTemplates(
  olds: readonly JsonObject[],
  news: readonly JsonObject[],
  strict: boolean,
): ItemReport[] {
  const key = (t: JsonObject): unknown => (typeof t.name === 'string' ? t.name : t.uriTemplate);
  return compareKeyed(byKey(olds, key), byKey(news, key), {
    kind: 'resource-template',
    added: 'resource-template-added',
    removed: 'resource-template-removed',
    compare: (before, after) => [
      ...(sameJson(before.uriTemplate, after.uriTemplate)
        ? []
        : [
            {
              rule: 'resource-template-changed' as const,
              verdict: 'breaking' as const,
              pointer: '/uriTemplate',
              args: { old: text(before.uriTemplate), new: text(after.uriTemplate) },
            },
          ]),
      ...mimeType(before, after, 'resource-template-mime-type-changed'),
      ...textChange(
        'resource-template-description-changed',
        '/description',
        text(before.description),
        text(after.description),
        strict,
      ),
      ...otherFields(before, after, TEMPLATE_JUDGED, 'resource-template-field-changed'),
    ],
  });
}

function mimeType(before: JsonObject, after: JsonObject, rule: RuleId): Finding[] {
  if (sameJson(before.mimeType, after.mimeType)) return [];
  return [
    {
      rule,
      verdict: 'breaking',
      pointer: '/mimeType',
      args: { old: text(before.mimeType), new: text(after.mimeType) },
    },
  ];
}
