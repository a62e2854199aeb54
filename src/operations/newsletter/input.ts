// Validation shared by the newsletter's GraphQL mutations and REST shim: one schema per input, described
// for the OpenAPI document.
import { z } from 'zod';

/** An integer path parameter is 1 to 18 decimal digits (a string on the wire: 18 digits overflow a double). */
export const channelIdSchema = z
  .string()
  .regex(/^[0-9]{1,18}$/, 'must be an integer of 1 to 18 digits')
  .describe('Channel id (integer)');

/** Trimmed and lower-cased before it is checked or used (docs/api.md). */
export const emailSchema = z
  .string()
  .max(254)
  .transform((e) => e.trim().toLowerCase())
  .pipe(z.email({ message: 'must be an e-mail address' }))
  .describe('E-mail address; trimmed and lower-cased');

export const activationKeySchema = z.string().min(1).max(256).describe('The activation key from the activation mail');

/** Strict: an unknown field (a `$`-operator included) is a 400, never silently dropped. */
export const activateSubscriptionBody = z
  .strictObject({ email: emailSchema, key: activationKeySchema })
  .describe('Activation request');
