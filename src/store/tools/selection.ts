// Which collections a tool works on: every collection of the database (system.* and views aside), narrowed
// by --only / --exclude, and the --no-secrets preset that leaves out customers and everything tied to them
// (carts, sign-in state, OAuth grants/tokens/sessions, one-time codes, subscribers, mail) and the signing
// keys kept in `settings`.
import type { Db, Document } from 'mongodb';
import { ToolError } from './errors.js';

/** Collections holding customers' data, credentials or tokens. */
export const SECRET_COLLECTIONS = [
  'customers',
  'carts',
  'oauth_models',
  'otp_codes',
  'oauth_revocations',
  'login_failures',
  'newsletterSubscriptions',
  'newsletter_limits',
  'outbox',
  'pollVotes',
  'live_limits',
] as const;

/** `settings` documents holding keys (OAuth signing and cookie keys, the recorded issuer, the cursor HMAC keys). */
export const SECRET_SETTINGS = ['oauth.keys', 'oauth.issuer', 'cursor.keys'] as const;

export interface SelectionOptions {
  only?: string[];
  exclude?: string[];
  noSecrets?: boolean;
}

export interface CollectionPlan {
  name: string;
  /** `_id`s of documents to leave out (only under --no-secrets, for `settings`). */
  leaveOut: readonly string[];
  /** The same as a store filter, for the tools that read from a store. */
  filter: Document;
}

export interface SourceCollection {
  name: string;
  type: string;
  options: Document;
  info?: Document;
}

export async function listSourceCollections(db: Db): Promise<SourceCollection[]> {
  const all = (await db.listCollections({}, { promoteValues: false }).toArray()) as Document[];
  return all
    .filter((c) => !String(c.name).startsWith('system.'))
    .map((c) => ({
      name: String(c.name),
      type: String(c.type ?? 'collection'),
      options: (c.options as Document) ?? {},
      info: c.info as Document | undefined,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Narrows `available` names to the plan; an --only name that does not exist is an error (a typo copies nothing). */
export function select(available: string[], opts: SelectionOptions): CollectionPlan[] {
  const known = new Set(available);
  const missing = (opts.only ?? []).filter((n) => !known.has(n));
  if (missing.length)
    throw new ToolError(
      `--only names collections the source does not have: ${missing.join(', ')} (it has: ${available.join(', ') || 'none'})`,
    );
  const excluded = new Set([...(opts.exclude ?? []), ...(opts.noSecrets ? SECRET_COLLECTIONS : [])]);
  return available
    .filter((n) => (opts.only ? opts.only.includes(n) : true) && !excluded.has(n))
    .map((name) => {
      const leaveOut = opts.noSecrets && name === 'settings' ? SECRET_SETTINGS : [];
      return { name, leaveOut, filter: leaveOut.length ? { _id: { $nin: [...leaveOut] } } : {} };
    });
}

export const splitList = (raw: string | undefined): string[] | undefined =>
  raw === undefined
    ? undefined
    : raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
