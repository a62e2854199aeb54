// A request body the handlers stopped reading (over a limit: raw-body pauses the stream there) is read to its
// end and thrown away once the answer is decided, so the client's next request on the kept-alive connection
// is parsed and answered. Node discards an unread body itself only if nothing began reading it; a body read
// part of the way was left paused, and the next request on that connection hung until the keep-alive timeout
// reset it (one request's bad input failing another). Node's requestTimeout still bounds the reading.
import type Koa from 'koa';

export const discardUnreadBody: Koa.Middleware = (ctx, next) => {
  const discard = (): void => {
    if (!ctx.req.complete && !ctx.req.destroyed) ctx.req.resume();
  };
  return next().then(discard, (err: unknown) => {
    discard();
    throw err;
  });
};
