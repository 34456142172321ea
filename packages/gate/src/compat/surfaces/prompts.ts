import { toPointer } from '../pointer.ts';
import type { Finding, JsonObject } from '../types.ts';
import { otherFields, text } from './fields.ts';
import { byKey, compareKeyed, type ItemReport } from './report.ts';
import { textChange } from './text.ts';

const JUDGED = new Set(['name', 'description', 'arguments']);

/**
 * Prompts by name. A caller fills a prompt's arguments, as it fills a tool's: a removed prompt,
 * a removed argument or one that became required breaks it; a new optional one does not.
 */
export function comparePrompts(
  olds: readonly JsonObject[],
  news: readonly JsonObject[],
  strict: boolean,
): ItemReport[] {
  return compareKeyed(
    byKey(olds, (p) => p.name),
    byKey(news, (p) => p.name),
    {
      kind: 'prompt',
      added: 'prompt-added',
      removed: 'prompt-removed',
      compare: (before, after) => [
        ...textChange(
          'prompt-description-changed',
          '/description',
          text(before.description),
          text(after.description),
          strict,
        ),
        ...compareArguments(before, after, strict),
        ...otherFields(before, after, JUDGED, 'prompt-field-changed'),
      ],
    },
  );
}

function compareArguments(before: JsonObject, after: JsonObject, strict: boolean): Finding[] {
  const olds = argumentsOf(before);
  const news = argumentsOf(after);
  const findings: Finding[] = [];
  for (const [name, { arg, index }] of news) {
    const pointer = toPointer(['arguments', String(index)]);
    const was = olds.get(name)?.arg;
    const required = arg.required === true;
    if (!was) {
      findings.push(
        required
          ? { rule: 'prompt-argument-required-added', verdict: 'breaking', pointer, args: { argument: name } }
          : { rule: 'prompt-argument-added', verdict: 'compatible', pointer, args: { argument: name } },
      );
      continue;
    }
    if (required && was.required !== true)
      findings.push({
        rule: 'prompt-argument-made-required',
        verdict: 'breaking',
        pointer,
        args: { argument: name },
      });
    if (!required && was.required === true)
      findings.push({
        rule: 'prompt-argument-made-optional',
        verdict: 'compatible',
        pointer,
        args: { argument: name },
      });
    findings.push(
      ...textChange(
        'prompt-argument-description-changed',
        `${pointer}/description`,
        text(was.description),
        text(arg.description),
        strict,
        {
          argument: name,
        },
      ),
    );
  }
  for (const [name] of olds) {
    if (!news.has(name))
      findings.push({
        rule: 'prompt-argument-removed',
        verdict: 'breaking',
        pointer: '/arguments',
        args: { argument: name },
      });
  }
  return findings;
}

function argumentsOf(prompt: JsonObject): Map<string, { arg: JsonObject; index: number }> {
  const list = Array.isArray(prompt.arguments) ? prompt.arguments : [];
  const out = new Map<string, { arg: JsonObject; index: number }>();
  list.forEach((arg, index) => {
    if (arg && typeof arg === 'object' && !Array.isArray(arg) && typeof arg.name === 'string')
      out.set(arg.name, { arg, index });
  });
  return out;
}
