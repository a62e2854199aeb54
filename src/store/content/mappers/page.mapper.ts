// Stored pages, issues and dynamic sections -> API objects.
import type { DynamicSection, Linkable } from '../../../schema/content/section.type.js';
import type { Issue } from '../../../schema/content/issue.type.js';
import type { Page } from '../../../schema/content/page.type.js';
import type { PublicationStatus, SectionDirection, SectionType } from '../../../schema/content/enums.js';
import type { IssueDoc, PageDoc } from '../page.doc.js';
import type { DynamicSectionDoc, LinkableDoc } from '../section.doc.js';

export function toPage(doc: PageDoc): Page {
  return {
    id: doc._id,
    name: doc.name,
    previewUrl: doc.previewUrl,
    publicFacingMetadata: { ...doc.publicFacingMetadata, keywords: [...doc.publicFacingMetadata.keywords] },
    enabled: doc.enabled,
  };
}

/** `append` orders newest first, which for linkables (no date) falls back to name; `append-unsorted` keeps the editors' order. */
function orderedLinkables(section: DynamicSectionDoc): Linkable[] {
  const items = section.linkables.map((l: LinkableDoc) => ({ name: l.name, url: l.url, objectType: l.objectType }));
  if (section.direction === 'append') items.sort((a, b) => a.name.localeCompare(b.name));
  return items.slice(0, Math.max(0, section.limit));
}

export function toDynamicSection(doc: DynamicSectionDoc): DynamicSection {
  return {
    name: doc.name,
    displayName: doc.displayName,
    limit: doc.limit,
    direction: doc.direction as SectionDirection,
    type: doc.type as SectionType,
    linkables: doc.type === 'linkables' ? orderedLinkables(doc) : [],
    articleIds: doc.type === 'articles' ? doc.articleIds : [],
  };
}

/** Array fields may be absent: the read was narrowed to what the operation selects (store/projection.ts). */
export function toIssue(doc: IssueDoc): Issue {
  return {
    id: doc._id,
    title: doc.title,
    date: doc.date,
    status: doc.status as PublicationStatus,
    timestamp: doc.timestamp,
    lastModifierUserId: doc.lastModifierUserId,
    issueNumber: doc.issueNumber,
    pdfFiles: (doc.pdfFiles ?? []).map((f) => ({ name: f.name, url: f.url })),
    imageUrl: doc.imageUrl,
    topImageUrl: doc.topImageUrl,
    pollId: doc.pollId,
    pageId: doc.pageId,
    dynamicSections: (doc.dynamicSections ?? []).map(toDynamicSection),
    repeatedArticleGroups: (doc.repeatedArticleGroups ?? []).map((g) => ({ name: g.name, articleIds: g.articleIds })),
    frontPage: doc.frontPage ? { categoryId: doc.frontPage.categoryId, articleIds: doc.frontPage.articleIds } : null,
    channelId: doc.channelId,
    contentRefs: (doc.contents ?? []).map((c) => ({ categoryId: c.categoryId, articleIds: c.articleIds })),
    authorIds: doc.authorIds,
  };
}
