import type { Json, JsonObject } from './types.ts';

/**
 * A member of a JSON object by name, only if the object has it as its own: undefined otherwise.
 * A schema may name a property `constructor` or `toString`, and `obj[name]` would then read
 * what every object inherits (a function) as if the schema had declared it, and `name in obj`
 * would say it had. Every lookup by a name taken from a schema or a value goes through here
 * or through `Object.hasOwn`.
 */
export function member(obj: JsonObject, name: string): Json | undefined {
  return Object.hasOwn(obj, name) ? obj[name] : undefined;
}

/**
 * Sets a member of a JSON object as its own, whatever its name: assigning `__proto__` on a
 * plain object would replace its prototype and add no member, where JSON.parse makes it one.
 */
export function setMember(obj: JsonObject, name: string, value: Json): void {
  if (name === '__proto__')
    Object.defineProperty(obj, name, { value, writable: true, enumerable: true, configurable: true });
  else obj[name] = value;
}
