// Use cases on single taxonomy objects and channels: categories and keywords by id or slug, authors, channels.
import type { Context } from '../../context.js';
import type { Author } from '../../schema/content/author.type.js';
import type { ContentCategory } from '../../schema/content/category.type.js';
import type { Channel } from '../../schema/content/channel.type.js';
import type { Keyword } from '../../schema/content/keyword.type.js';
import {
  authorById,
  categoryById,
  categoryBySlug,
  channelById,
  keywordById,
  keywordBySlug,
} from '../../store/content/loaders.js';
import { toChannel } from '../../store/content/mappers/elements.mapper.js';
import { toAuthor, toCategory, toKeyword } from '../../store/content/mappers/taxonomy.mapper.js';
import { oneOf } from './articles.js';
import { checkChannelId, checkId } from './input.js';

export async function getCategory(
  ctx: Context,
  args: { id?: string | null; slug?: string | null },
): Promise<ContentCategory | null> {
  const key = oneOf(args);
  const doc =
    'id' in key
      ? await ctx.loaders.get(categoryById).load(key.id)
      : await ctx.loaders.get(categoryBySlug).load(key.slug);
  return doc ? toCategory(doc) : null;
}

export async function getAuthor(ctx: Context, id: string): Promise<Author | null> {
  const doc = await ctx.loaders.get(authorById).load(checkId(id));
  return doc ? toAuthor(doc) : null;
}

export async function getKeyword(
  ctx: Context,
  args: { id?: string | null; slug?: string | null },
): Promise<Keyword | null> {
  const key = oneOf(args);
  const doc =
    'id' in key ? await ctx.loaders.get(keywordById).load(key.id) : await ctx.loaders.get(keywordBySlug).load(key.slug);
  return doc ? toKeyword(doc) : null;
}

export async function getChannel(ctx: Context, id: string): Promise<Channel | null> {
  const doc = await ctx.loaders.get(channelById).load(checkChannelId(id));
  return doc ? toChannel(doc) : null;
}
