/**
 * JSON values a tool result may carry. A type alias (not an interface) on purpose:
 * class instances such as unwrapped member text are not assignable to it, so
 * putting raw member text into a result does not compile.
 */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A JSON Schema document, as published in tools/list. */
export type JsonSchema = { [key: string]: unknown };
