// Every index the content resolvers rely on: one per lookup that is not by `_id`.
import type { IndexDef } from '../index-def.js';

const published = { status: 1, firstPublishedDate: -1, _id: -1 } as const;

export const contentIndexes: IndexDef[] = [
  // pages(first, after): ordered by name
  { collection: 'pages', key: { name: 1, _id: 1 }, options: { name: 'pages_name' } },
  // Page.issues and GET /cms/page/{id}/issues: newest first
  {
    collection: 'issues',
    key: { pageId: 1, status: 1, date: -1, issueNumber: -1, _id: -1 },
    options: { name: 'issues_page_date' },
  },
  // article(slug), articles(...) and the article connections of categories, authors and keywords
  { collection: 'articles', key: { slug: 1 }, options: { name: 'articles_slug', unique: true } },
  { collection: 'articles', key: published, options: { name: 'articles_published' } },
  // Per parent: equality on the parent and the status, then the sort. With both equalities in the key a
  // planner prefers these to `articles_published` for `{ categoryIds: x, status: 'published' }`.
  { collection: 'articles', key: { categoryIds: 1, ...published }, options: { name: 'articles_category' } },
  { collection: 'articles', key: { authorIds: 1, ...published }, options: { name: 'articles_author' } },
  { collection: 'articles', key: { keywordIds: 1, ...published }, options: { name: 'articles_keyword' } },
  // searchArticles (src/store/content/search.ts): the headline weighs most, the summary less. Only what every
  // reader sees is indexed (the body is HTML and withheld without access), so each hit shows why it matched.
  // The status after the text fields: a reader's search (published only) is counted from the index's entries,
  // without reading each match.
  {
    collection: 'articles',
    key: { title: 'text', summary: 'text', status: 1 },
    options: { name: 'articles_text', weights: { title: 10, summary: 4 }, default_language: 'english' },
    deferred: true,
  },
  // The publication clock (src/operations/content/publication-clock.ts): what is due, and the next change to come
  ...(['articles', 'issues'] as const).flatMap((collection): IndexDef[] => [
    { collection, key: { status: 1, publishAt: 1 }, options: { name: `${collection}_publish_at` } },
    { collection, key: { status: 1, unpublishAt: 1 }, options: { name: `${collection}_unpublish_at` } },
  ]),
  // A document's publication history
  {
    collection: 'publicationTransitions',
    key: { collection: 1, documentId: 1, at: 1 },
    options: { name: 'publication_transitions_document' },
  },
  // Preview links (store/content/preview-links.ts): forgotten a day after they expire
  { collection: 'previewLinks', key: { forgetAt: 1 }, options: { name: 'preview_links_ttl', expireAfterSeconds: 0 } },
  { collection: 'contentCategories', key: { slug: 1 }, options: { name: 'content_categories_slug', unique: true } },
  { collection: 'keywords', key: { slug: 1 }, options: { name: 'keywords_slug', unique: true } },
  // Subscribing to a live blog: the articles carrying it decide whether it is premium
  { collection: 'articles', key: { 'elements.liveBlogIds': 1 }, options: { name: 'articles_live_blogs' } },
  // liveBlogUpdates(websocketRoomName): the room name legacy clients hold
  { collection: 'liveBlogs', key: { websocketRoomName: 1 }, options: { name: 'live_blogs_room' } },
  // LiveBlog.previewMessages: the newest messages of each blog
  {
    collection: 'liveBlogMessages',
    key: { liveBlogId: 1, seq: -1 },
    options: { name: 'live_blog_messages_seq', unique: true },
  },
  // Poll.voted / votedChoice for the viewer
  {
    collection: 'pollVotes',
    key: { customerId: 1, pollId: 1 },
    options: { name: 'poll_votes_customer', unique: true },
  },
  // Vote, quiz and posting limits (src/operations/live/limits.ts): one document per key, expiring with its window
  { collection: 'live_limits', key: { key: 1 }, options: { name: 'live_limits_key', unique: true } },
  { collection: 'live_limits', key: { expire: -1 }, options: { name: 'live_limits_ttl', expireAfterSeconds: 0 } },
];
