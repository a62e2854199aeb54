// The public, cacheable GET answers (docs/api.md): If-None-Match in, ETag and Cache-Control
// out, 304 when the client's copy is current.
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { headers } from '../components/headers.js';
import { z } from '../zod.js';

export const conditionalRequestHeaders = z.object({
  'If-None-Match': z
    .string()
    .optional()
    .describe('An ETag from an earlier answer: a 304 without a body when it still matches'),
});

export const notModified: ResponseConfig = {
  description: 'Not Modified: the `If-None-Match` ETag still matches; no body',
  headers: headers({ ETag: 'ETag', 'Cache-Control': 'CacheControl' }),
};
