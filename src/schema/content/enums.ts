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
});
registerEnumType(CategoryStatus, { name: 'CategoryStatus', description: 'Readers only ever see ACTIVE categories' });
registerEnumType(VideoStatus, { name: 'VideoStatus', description: 'Readers only ever see READY videos' });
registerEnumType(QuizStatus, { name: 'QuizStatus', description: 'Readers see OPEN and CLOSED quizzes, never DRAFT ones' });
registerEnumType(SectionDirection, {
  name: 'SectionDirection',
  description: 'How a dynamic section orders what it holds',
  valuesConfig: {
    APPEND: { description: 'Newest first (articles by first published date; linkables by name)' },
    APPEND_UNSORTED: { description: 'In the order the editors placed them' },
  },
});
registerEnumType(SectionType, { name: 'SectionType', description: 'What a dynamic section holds' });
registerEnumType(AttachmentType, { name: 'AttachmentType' });
