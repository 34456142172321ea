import { jsonPreview } from './json-text.ts';
import { toPointer } from './pointer.ts';
import type { Tool } from './tools.ts';
import type { Finding, Json, JsonObject } from './types.ts';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function finding(pointer: string, problem: string): Finding {
  return { rule: 'tool-not-conformant', verdict: 'compatible', pointer, args: { problem } };
}

/** A schema field that MCP requires to describe an object: `{"type": "object", ...}`. */
function objectSchemaProblems(tool: Tool, field: 'inputSchema' | 'outputSchema'): Finding[] {
  const schema = tool[field];
  if (schema === undefined) return field === 'inputSchema' ? [finding('', 'inputSchema is missing')] : [];
  if (!isObject(schema)) return [finding(toPointer([field]), `${field} is not a JSON object`)];
  if (schema.type !== 'object')
    return [
      finding(
        toPointer(schema.type === undefined ? [field] : [field, 'type']),
        `${field} has ${schema.type === undefined ? 'no "type"' : `"type": ${jsonPreview(schema.type, 200)}`}, where MCP requires "type": "object"`,
      ),
    ];
  return [];
}

/**
 * What keeps a served tool from being valid MCP (the spec's Tool: an object `inputSchema` of
 * `"type": "object"`, the same for an `outputSchema`, string title and description, boolean
 * hints). The gate pins and compares such a tool all the same; these findings say why a
 * strict client would refuse the whole list. Checked by hand rather than with the SDK's
 * schema so that the library keeps standing alone and each problem gets its own pointer.
 */
export function conformanceFindings(tool: Tool): Finding[] {
  const out = [...objectSchemaProblems(tool, 'inputSchema'), ...objectSchemaProblems(tool, 'outputSchema')];
  for (const field of ['title', 'description'] as const) {
    if (tool[field] !== undefined && typeof tool[field] !== 'string')
      out.push(finding(toPointer([field]), `${field} is not a string`));
  }
  const annotations = tool.annotations;
  if (annotations !== undefined) {
    if (!isObject(annotations)) out.push(finding('/annotations', 'annotations is not a JSON object'));
    else
      for (const hint of HINTS) {
        if (annotations[hint] !== undefined && typeof annotations[hint] !== 'boolean')
          out.push(finding(toPointer(['annotations', hint]), `annotations.${hint} is not a boolean`));
      }
  }
  return out;
}
