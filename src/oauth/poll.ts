// A background poll: runs `task` every `periodMs` after the previous run finished (never two at once),
// logs a failure and carries on, and never keeps the process alive. The OAuth revocation list and the
// signing keys are fed this way.
import type { Logger } from '../logger.js';

export interface Poll {
  stop(): void;
}

export function startPoll(
  periodMs: number,
  task: () => Promise<void>,
  onError: { log: Logger; message: string },
): Poll {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = () => {
    timer = setTimeout(() => {
      void task()
        .catch((err: unknown) => onError.log.warn({ err }, onError.message))
        .finally(() => {
          if (!stopped) tick();
        });
    }, periodMs);
    timer.unref();
  };
  tick();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
