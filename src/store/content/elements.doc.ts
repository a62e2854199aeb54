// Stored shape of article elements with a life of their own: live blogs and their messages, polls
// (and who voted what), quizzes (collections `liveBlogs`, `liveBlogMessages`, `polls`, `pollVotes`, `quizzes`).
import type { RateLimitDoc } from '../rate-limit.doc.js';

export interface LiveBlogDoc {
  _id: string;
  title: string;
  startDate: Date;
  endDate: Date | null;
  websocketRoomName: string;
  /** Sequence number of the newest message; messages are numbered 1..lastSeq within the blog. */
  lastSeq: number;
}

export interface LiveBlogMessageDoc {
  _id: string;
  liveBlogId: string;
  seq: number;
  timestamp: Date;
  text: string;
  title: string | null;
  minute: number | null;
  additionalMinute: number | null;
  typeId: string | null;
  imageLetter: string | null;
  highlight: boolean;
  htmlContent: string | null;
  userDisplayName: string | null;
  userThumbnailUrl: string | null;
  /** The editor (customer id) who posted it through the API; absent for imported messages. */
  authorId?: string;
  /** Set by an edit. */
  editedAt?: Date;
}

interface PollChoiceDoc {
  id: string;
  text: string;
  votes: number;
}

export interface PollDoc {
  _id: string;
  timestamp: Date;
  question: string;
  choices: PollChoiceDoc[];
  slug: string;
  category: { id: string; name: string; image: string | null } | null;
  message: string | null;
  onlyLoggedIn: boolean;
  endDate: Date | null;
  closed: boolean;
}

/** One customer's vote on one poll: the source of a viewer's `voted` / `votedChoice`. */
export interface PollVoteDoc {
  _id: string;
  pollId: string;
  customerId: string;
  choiceId: string;
  votedAt: Date;
}

type QuizStatusValue = 'draft' | 'open' | 'closed';

interface QuizAnswerDoc {
  id: string;
  text: string;
  letter: string;
  image: string | null;
  correct: boolean;
  points: number;
  votes: number;
}

interface QuizQuestionDoc {
  id: string;
  title: string;
  resultText: string | null;
  image: string | null;
  choices: QuizAnswerDoc[];
}

export interface QuizResultDoc {
  id: string;
  result: string;
  image: string | null;
  letter: string | null;
  resultText: string | null;
  share: string | null;
  twitterShare: string | null;
  minimum: number;
  maximum: number;
  votes: number;
}

export interface QuizDoc {
  _id: string;
  name: string;
  timestamp: Date;
  image: string | null;
  coverPicture: string | null;
  description: string | null;
  share: string | null;
  template: string | null;
  allowForm: boolean;
  introductionMessage: string | null;
  thankyouMessage: string | null;
  terms: string | null;
  status: QuizStatusValue;
  questions: QuizQuestionDoc[];
  results: QuizResultDoc[];
}

declare module '../collections.js' {
  interface CollectionTypes {
    liveBlogs: LiveBlogDoc;
    liveBlogMessages: LiveBlogMessageDoc;
    polls: PollDoc;
    pollVotes: PollVoteDoc;
    quizzes: QuizDoc;
    live_limits: RateLimitDoc;
  }
}
