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
 * Sets a member of an object as its own, whatever its name: assigning `__proto__` on a plain
 * object would replace its prototype and add no member, where JSON.parse makes it one. The one
 * way the gate sets a member by a name it was given (a schema's, a value's, a served tool's).
 */
export function setMember<T>(obj: Record<string, T>, name: string, value: T): void {
  if (name === '__proto__')
    Object.defineProperty(obj, name, { value, writable: true, enumerable: true, configurable: true });
  else obj[name] = value;
}
