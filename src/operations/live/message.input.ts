// What an editor may send for a live-blog message, checked before anything is written.
import { z } from 'zod';
import { parseOr400 } from '../../validation.js';

const nullableText = (max: number) => z.string().max(max).nullable().optional();
const minute = z.number().int().min(0).max(10_000).nullable().optional();

const messageFields = z.strictObject({
  text: z.string().trim().min(1).max(10_000),
  title: nullableText(500),
  minute,
  additionalMinute: minute,
  typeId: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/)
    .nullable()
    .optional(),
  imageLetter: nullableText(4),
  highlight: z.boolean().optional(),
  htmlContent: nullableText(50_000),
  userThumbnailUrl: z
    .url({ protocol: /^https?$/ })
    .max(2_000)
    .nullable()
    .optional(),
});

export type MessageFields = z.output<typeof messageFields>;
export type MessageChanges = Partial<MessageFields>;

const changes = messageFields
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Give at least one field to change' });

/** Strips GraphQL's undefined-vs-absent noise: only the fields the client set. */
const given = (input: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));

export const parseNewMessage = (input: object): MessageFields => parseOr400(messageFields, given(input), 'arguments');
export const parseMessageChanges = (input: object): MessageChanges => parseOr400(changes, given(input), 'arguments');
