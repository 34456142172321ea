import type { ErrorObject } from 'ajv';

/** A meta-schema's validator: true when a schema is valid, with Ajv's errors when it is not. */
export type MetaValidator = ((schema: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Validators of the meta-schemas, built ahead of time, keyed by "dialect id" (see metaKey in
 * validator.ts). From source this table is empty and Ajv builds each meta-schema's validator on
 * first use. The package's build (build.js) replaces this module with the code Ajv generates for
 * the same meta-schemas, in the same configuration (see meta-prebuild.ts): building them is most
 * of what checking schemas against their meta-schema costs a short run.
 */
export const PREBUILT_META: Readonly<Record<string, MetaValidator>> = {};
