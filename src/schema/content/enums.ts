// GraphQL enums of the content model: upper-case names, stored as lower-case strings (the REST form too).
import { registerEnumType } from 'type-graphql';

export enum PublicationStatus {
  DRAFT = 'draft',
  SCHEDULED = 'scheduled',
  PUBLISHED = 'published',
  ARCHIVED = 'archived',
}

export enum CategoryStatus {
  ACTIVE = 'active',
  INACTIVE = 'inactive',
}

export enum VideoStatus {
  PROCESSING = 'processing',
  READY = 'ready',
  FAILED = 'failed',
}

export enum QuizStatus {
  DRAFT = 'draft',
  OPEN = 'open',
  CLOSED = 'closed',
}

export enum SectionDirection {
  APPEND = 'append',
  APPEND_UNSORTED = 'append-unsorted',
}

export enum SectionType {
  ARTICLES = 'articles',
  LINKABLES = 'linkables',
}

export enum AttachmentType {
  IMAGE = 'image',
  VIDEO = 'video',
  FILE = 'file',
}

registerEnumType(PublicationStatus, {
  name: 'PublicationStatus',
  description: 'Life cycle of issues and articles; readers only ever see PUBLISHED ones',
  valuesConfig: {
    DRAFT: { description: 'Being written; not served' },
    SCHEDULED: { description: 'Waiting for its publication time; not served yet' },
    PUBLISHED: { description: 'Live: served to readers' },
    ARCHIVED: { description: 'Withdrawn; no longer served' },
  },
});
registerEnumType(CategoryStatus, {
  name: 'CategoryStatus',
  description: 'Readers only ever see ACTIVE categories',
  valuesConfig: {
    ACTIVE: { description: 'Served to readers' },
    INACTIVE: { description: 'Hidden: not served, and left out of issue contents' },
  },
});
registerEnumType(VideoStatus, {
  name: 'VideoStatus',
  description: 'Readers only ever see READY videos',
  valuesConfig: {
    PROCESSING: { description: 'Being encoded; not served yet' },
    READY: { description: 'Playable: served to readers' },
    FAILED: { description: 'Encoding failed; not served' },
  },
});
registerEnumType(QuizStatus, {
  name: 'QuizStatus',
  description: 'Readers see OPEN and CLOSED quizzes, never DRAFT ones',
  valuesConfig: {
    DRAFT: { description: 'Being prepared; not served' },
    OPEN: { description: 'Served and takes submissions' },
    CLOSED: { description: 'Served with its counts; takes no more submissions (QUIZ_NOT_OPEN)' },
  },
});
registerEnumType(SectionDirection, {
  name: 'SectionDirection',
  description: 'How a dynamic section orders what it holds',
  valuesConfig: {
    APPEND: { description: 'Newest first (articles by first published date; linkables by name)' },
    APPEND_UNSORTED: { description: 'In the order the editors placed them' },
  },
});
registerEnumType(SectionType, {
  name: 'SectionType',
  description: 'What a dynamic section holds',
  valuesConfig: {
    ARTICLES: { description: 'Articles, in `articles`; `linkables` is empty' },
    LINKABLES: { description: 'Links, in `linkables`; `articles` is empty' },
  },
});
registerEnumType(AttachmentType, {
  name: 'AttachmentType',
  description: 'What an attachment holds',
  valuesConfig: {
    IMAGE: { description: 'An image; `transforms` lists its renditions' },
    VIDEO: { description: 'A video; `video` holds it once it is ready' },
    FILE: { description: 'A downloadable file' },
  },
});
