// Generators of live blogs and their messages, polls, quizzes and channels.
import type { ChannelDoc } from '../store/content/channel.doc.js';
import type { LiveBlogDoc, LiveBlogMessageDoc, PollDoc, QuizDoc } from '../store/content/elements.doc.js';
import { randFor, slugify, type Rand } from './content-random.js';
import { DAY_MS, HOUR_MS, SPAN_MS, id, type GenContext } from './content-sizes.js';

const messagesOfBlog = (ctx: GenContext, blog: number): number => randFor(ctx.seed, 'live-blog-size', blog).int(8, 40);

/** Messages of a seeded blog are this far apart. */
const MESSAGE_GAP_MS = 180_000;

/**
 * The first blog is in progress (started so that its last message is a few minutes old, no end date): the one
 * to follow and post to. The others are over, spread over the span before the moment of seeding.
 */
export function makeLiveBlog(ctx: GenContext, i: number): LiveBlogDoc {
  const r = randFor(ctx.seed, 'live-blog', i);
  const messages = messagesOfBlog(ctx, i);
  const live = i === 0;
  const start = live
    ? ctx.now - messages * MESSAGE_GAP_MS - r.int(60_000, 10 * 60_000)
    : ctx.now - r.int(DAY_MS, SPAN_MS);
  return {
    _id: id('live-blog', i),
    title: `Live: ${r.pick(ctx.pools.headlines)}`,
    startDate: new Date(start),
    endDate: live ? null : new Date(start + Math.max(messages * MESSAGE_GAP_MS, r.int(2, 12) * HOUR_MS)),
    websocketRoomName: `live-blog-${i + 1}`,
    lastSeq: messages,
  };
}

export function makeMessages(ctx: GenContext, blog: LiveBlogDoc, i: number): LiveBlogMessageDoc[] {
  const r = randFor(ctx.seed, 'live-blog-messages', i);
  const sport = r.chance(0.5);
  return Array.from({ length: blog.lastSeq }, (_, k) => {
    const seq = k + 1;
    const { first, last } = r.pick(ctx.pools.people);
    return {
      _id: `${blog._id}-message-${seq}`,
      liveBlogId: blog._id,
      seq,
      timestamp: new Date(blog.startDate.getTime() + seq * MESSAGE_GAP_MS),
      text: r.pick(ctx.pools.sentences),
      title: r.chance(0.3) ? r.pick(ctx.pools.headlines) : null,
      minute: sport ? Math.min(90, seq * 2) : null,
      additionalMinute: sport && seq * 2 > 90 ? r.int(1, 5) : null,
      typeId: r.pick(['update', 'quote', 'image', sport ? 'goal' : 'breaking']),
      imageLetter: r.chance(0.2) ? r.pick(['!', 'G', 'Y', 'R']) : null,
      highlight: r.chance(0.15),
      htmlContent: r.chance(0.5) ? `<p>${r.pick(ctx.pools.sentences)}</p>` : null,
      userDisplayName: `${first} ${last}`,
      userThumbnailUrl: `https://img.example-news.com/reporters/${slugify(last)}.jpg`,
    };
  });
}

/** Polls by index: open to anyone, open to signed-in customers without an end, ended, closed early by an editor. */
const POLL_STATES = ['open', 'open-members', 'ended', 'closed-early'] as const;

function pollDates(
  ctx: GenContext,
  r: Rand,
  state: (typeof POLL_STATES)[number],
): { timestamp: number; endDate: number | null } {
  switch (state) {
    case 'open':
      return { timestamp: ctx.now - r.int(HOUR_MS, 3 * DAY_MS), endDate: ctx.now + r.int(3, 30) * DAY_MS };
    case 'open-members':
      return { timestamp: ctx.now - r.int(HOUR_MS, 10 * DAY_MS), endDate: null };
    case 'ended': {
      const timestamp = ctx.now - r.int(15 * DAY_MS, SPAN_MS);
      return { timestamp, endDate: timestamp + 14 * DAY_MS };
    }
    case 'closed-early':
      return { timestamp: ctx.now - r.int(2, 10) * DAY_MS, endDate: ctx.now + 7 * DAY_MS };
  }
}

/** `poll-1` is open to anyone, so a first vote needs no token. */
export function makePoll(ctx: GenContext, i: number): PollDoc {
  const r = randFor(ctx.seed, 'poll', i);
  const options = r.sample(ctx.pools.words, r.int(2, 5));
  const state = POLL_STATES[i % POLL_STATES.length]!;
  const { timestamp, endDate } = pollDates(ctx, r, state);
  return {
    _id: id('poll', i),
    timestamp: new Date(timestamp),
    question: `${r.pick(ctx.pools.headlines)}?`,
    choices: options.map((text, k) => ({
      id: `choice-${k + 1}`,
      text: text.replace(/^./, (c) => c.toUpperCase()),
      votes: r.skewed(5_000),
    })),
    slug: `poll-${i + 1}`,
    category: r.chance(0.7)
      ? {
          id: `poll-category-${r.int(1, 6)}`,
          name: r.pick(['Politics', 'Sport', 'Culture', 'Economy', 'Life', 'Local']),
          image: null,
        }
      : null,
    message: r.chance(0.5) ? 'Thank you for voting!' : null,
    onlyLoggedIn: state === 'open-members' || (state !== 'open' && r.chance(0.2)),
    endDate: endDate === null ? null : new Date(endDate),
    closed: state === 'closed-early',
  };
}

/** Quizzes by index: two open, one closed, one draft (hidden), so every scale has open and closed ones. */
const QUIZ_STATES = ['open', 'open', 'closed', 'draft'] as const;

export function makeQuiz(ctx: GenContext, i: number): QuizDoc {
  const r = randFor(ctx.seed, 'quiz', i);
  const questions = Array.from({ length: r.int(3, 8) }, (_, q) => {
    const correct = r.int(0, 3);
    return {
      id: `question-${q + 1}`,
      title: `${r.pick(ctx.pools.headlines)}?`,
      resultText: r.chance(0.5) ? r.pick(ctx.pools.sentences) : null,
      image: r.chance(0.3) ? `https://img.example-news.com/quiz/${i + 1}-${q + 1}.jpg` : null,
      choices: ['A', 'B', 'C', 'D'].map((letter, a) => ({
        id: `answer-${q + 1}-${a + 1}`,
        text: r.pick(ctx.pools.words),
        letter,
        image: null,
        correct: a === correct,
        points: a === correct ? 10 : 0,
        votes: r.skewed(2_000),
      })),
    };
  });
  const max = questions.length * 10;
  return {
    _id: id('quiz', i),
    name: `Quiz: ${r.pick(ctx.pools.headlines)}`,
    timestamp: new Date(ctx.now - r.int(HOUR_MS, SPAN_MS)),
    image: `https://img.example-news.com/quiz/${i + 1}.jpg`,
    coverPicture: r.chance(0.5) ? `https://img.example-news.com/quiz/${i + 1}-cover.jpg` : null,
    description: r.pick(ctx.pools.sentences),
    share: 'I scored {score} points. Can you beat me?',
    template: r.pick(['classic', 'personality', 'trivia']),
    allowForm: r.chance(0.3),
    introductionMessage: r.pick(ctx.pools.sentences),
    thankyouMessage: 'Thanks for playing!',
    terms: r.chance(0.3) ? 'Prizes are drawn among all correct entries.' : null,
    status: QUIZ_STATES[i % QUIZ_STATES.length]!,
    questions,
    results: [
      {
        id: 'result-1',
        result: 'Beginner',
        image: null,
        letter: 'C',
        resultText: 'Keep reading!',
        share: null,
        twitterShare: null,
        minimum: 0,
        maximum: Math.floor(max / 2),
        votes: r.skewed(3_000),
      },
      {
        id: 'result-2',
        result: 'Expert',
        image: null,
        letter: 'A',
        resultText: 'Impressive.',
        share: 'I am an expert!',
        twitterShare: 'Expert level reached',
        minimum: Math.floor(max / 2) + 1,
        maximum: max,
        votes: r.skewed(3_000),
      },
    ],
  };
}

export function makeChannel(ctx: GenContext, i: number): ChannelDoc {
  const r = randFor(ctx.seed, 'channel', i);
  const link = (name: string, objectType: string) => ({
    name,
    url: `https://www.example-news.com/${slugify(name)}`,
    objectType,
  });
  return {
    _id: String(i + 1),
    name: i === 0 ? 'Web' : i === 1 ? 'Mobile app' : `Newsletter ${i - 1}`,
    image: `https://img.example-news.com/channels/${i + 1}.png`,
    description: r.pick(ctx.pools.sentences),
    objectType: i === 0 ? 'site' : i === 1 ? 'app' : 'newsletter',
    configuration: {
      linkables: [
        { key: 'menu', linkables: ['News', 'Sport', 'Culture', 'Opinion'].map((n) => link(n, 'category')) },
        { key: 'footer', linkables: ['About us', 'Contact', 'Terms', 'Privacy'].map((n) => link(n, 'page')) },
      ],
      dynamicSections: [
        {
          name: 'partners',
          displayName: 'Partners',
          limit: 3,
          direction: 'append-unsorted',
          type: 'linkables',
          articleIds: [],
          linkables: r
            .sample(ctx.pools.companies, 4)
            .map((c) => ({ name: c, url: `https://partners.example-news.com/${slugify(c)}`, objectType: 'external' })),
        },
        {
          name: 'editors-picks',
          displayName: "Editors' picks",
          limit: 4,
          direction: 'append',
          type: 'articles',
          articleIds: Array.from({ length: 6 }, () => id('article', r.int(0, ctx.sizes.articles - 1))),
          linkables: [],
        },
      ],
    },
  };
}
