// Stored shape of a rate-limit counter: rate-limiter-flexible's RateLimiterMongo document, the same in every
// collection that holds counters (`live_limits`, `newsletter_limits`, `login_failures`).

export interface RateLimitDoc {
  _id?: unknown;
  key: string;
  points: number;
  expire: Date | null;
}
