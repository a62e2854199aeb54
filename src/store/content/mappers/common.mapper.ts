// Stored value objects shared by several content types -> API objects.
import type { ImageTransform } from '../../../schema/content/common.type.js';
import type { ImageTransformDoc } from '../media.doc.js';

export const toImageTransform = (t: ImageTransformDoc): ImageTransform => ({
  width: t.width,
  height: t.height,
  url: t.url,
});
