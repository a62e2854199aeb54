// Stored shape of attachments (embedded in articles) and videos (collection `videos`).

export interface ImageTransformDoc {
  width: number;
  height: number;
  url: string;
}

type AttachmentTypeValue = 'image' | 'video' | 'file';

export interface AttachmentDoc {
  id: string;
  name: string;
  description: string | null;
  type: AttachmentTypeValue;
  publicUrl: string;
  width: number | null;
  height: number | null;
  /** "x% y%" */
  focalPoint: string | null;
  transforms: ImageTransformDoc[];
  /** Extra URL per transform, keyed by transform name (e.g. a 2x rendition of `640x360`). */
  additionalUrls: Array<{ transform: string; url: string }>;
  searchTitle: string | null;
  searchDescription: string | null;
  socialTitle: string | null;
  videoId: string | null;
}

type VideoStatusValue = 'processing' | 'ready' | 'failed';

interface VideoFormatDoc {
  format: string;
  filename: string;
  cdnPath: string;
  mimeType: string;
  duration: number;
}

export interface VideoDoc {
  _id: string;
  title: string;
  url: string;
  duration: number;
  episodeNumber: number | null;
  status: VideoStatusValue;
  showId: string | null;
  showName: string | null;
  showUrl: string | null;
  brief: string | null;
  thumbnailUrl: string | null;
  thumbnailPlayUrl: string | null;
  filename: string;
  publishDate: Date | null;
  views: number;
  publish: boolean;
  formats: VideoFormatDoc[];
}

declare module '../collections.js' {
  interface CollectionTypes {
    videos: VideoDoc;
  }
}
