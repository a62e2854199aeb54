// Stored videos -> API objects (attachments are mapped with their article).
import type { VideoStatus } from '../../../schema/content/enums.js';
import type { Video } from '../../../schema/content/video.type.js';
import type { VideoDoc } from '../media.doc.js';

export function toVideo(doc: VideoDoc): Video {
  const { _id, status, formats, ...rest } = doc;
  return { ...rest, id: _id, status: status as VideoStatus, formats: formats.map((f) => ({ ...f })) };
}
