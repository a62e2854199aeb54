// type-graphql wants a PubSub once a schema has subscriptions, even when every one of them brings its own
// `subscribe` function (ours come from the hub, src/live/hub.ts). This one refuses topic-based use.
import type { PubSub } from 'type-graphql';

export const noTopicsPubSub: PubSub = {
  publish() {
    throw new Error('topic publishing is not used: live events come from store change streams (src/live)');
  },
  subscribe() {
    throw new Error('topic subscriptions are not used: subscribe functions come from src/operations/live');
  },
};
