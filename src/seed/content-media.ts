// Generators of videos and of the attachments embedded in articles.
import type { AttachmentDoc, VideoDoc } from '../store/content/media.doc.js';
import { randFor, type Rand } from './content-random.js';
import { SPAN_MS, id, type GenContext } from './content-sizes.js';

const CDN = 'https://cdn.example-news.com';
const VIDEO = 'https://video.example-news.com';

export function makeVideo(ctx: GenContext, i: number): VideoDoc {
  const r = randFor(ctx.seed, 'video', i);
  const duration = r.int(20, 1800);
  const show = r.int(1, 25);
  const status = r.chance(0.9) ? 'ready' : r.chance(0.7) ? 'processing' : 'failed';
  const key = `v${(i + 1).toString(36)}`;
  return {
    _id: id('video', i),
    title: r.pick(ctx.pools.headlines),
    url: `${VIDEO}/watch/${key}`,
    duration,
    episodeNumber: r.chance(0.4) ? r.int(1, 120) : null,
    status,
    showId: `show-${show}`,
    showName: `${ctx.pools.words[show]!.replace(/^./, (c) => c.toUpperCase())} Weekly`,
    showUrl: `${VIDEO}/shows/${show}`,
    brief: r.pick(ctx.pools.sentences),
    thumbnailUrl: `${CDN}/video/${key}/thumb.jpg`,
    thumbnailPlayUrl: `${CDN}/video/${key}/thumb-play.jpg`,
    filename: `${CDN}/video/${key}/master.mp4`,
    publishDate: status === 'ready' ? new Date(ctx.now - r.int(0, SPAN_MS)) : null,
    views: r.skewed(500_000),
    publish: status === 'ready',
    formats: [
      {
        format: 'hls',
        filename: `${CDN}/video/${key}/index.m3u8`,
        cdnPath: `/video/${key}/index.m3u8`,
        mimeType: 'application/vnd.apple.mpegurl',
        duration,
      },
      {
        format: 'mp4-720p',
        filename: `${CDN}/video/${key}/720p.mp4`,
        cdnPath: `/video/${key}/720p.mp4`,
        mimeType: 'video/mp4',
        duration,
      },
    ],
  };
}

const SIZES = [
  [640, 360],
  [1280, 720],
] as const;

/** One attachment of article `article`, number `n`; `kind` decides the type and whether it carries a video. */
export function makeAttachment(
  ctx: GenContext,
  r: Rand,
  article: number,
  n: number,
  kind: 'image' | 'video' | 'file',
): AttachmentDoc {
  const attachmentId = `${id('article', article)}-${kind}-${n + 1}`;
  const base = `${CDN}/${kind}s/${article + 1}-${n + 1}`;
  if (kind === 'file') {
    return {
      id: attachmentId,
      name: `${ctx.pools.words[(article + n) % ctx.pools.words.length]}.pdf`,
      description: null,
      type: 'file',
      publicUrl: `${base}.pdf`,
      width: null,
      height: null,
      focalPoint: null,
      transforms: [],
      additionalUrls: [],
      searchTitle: null,
      searchDescription: null,
      socialTitle: null,
      videoId: null,
    };
  }
  const transforms = SIZES.map(([w, h]) => ({ width: w, height: h, url: `${base}-${w}x${h}.jpg` }));
  return {
    id: attachmentId,
    name: r.pick(ctx.pools.headlines),
    description: r.chance(0.6) ? r.pick(ctx.pools.sentences) : null,
    type: kind,
    publicUrl: kind === 'video' ? `${base}.mp4` : `${base}.jpg`,
    width: 1920,
    height: 1080,
    focalPoint: `${r.int(20, 80)}% ${r.int(20, 80)}%`,
    transforms,
    additionalUrls: transforms.map((t) => ({
      transform: `${t.width}x${t.height}`,
      url: t.url.replace(/\.jpg$/, '@2x.webp'),
    })),
    searchTitle: r.chance(0.3) ? r.pick(ctx.pools.headlines) : null,
    searchDescription: null,
    socialTitle: r.chance(0.2) ? r.pick(ctx.pools.headlines) : null,
    videoId: kind === 'video' ? id('video', r.int(0, ctx.sizes.videos - 1)) : null,
  };
}
