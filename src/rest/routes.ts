// The legacy REST paths: a route table of thin shims over the same operations GraphQL uses.
import { Router } from '@koa/router';
import type { AppDeps, AppState } from '../http/app-context.js';
import { ReadyParts } from '../cache/ready-parts.js';
import { registerActivateSubscriptionRoutes } from './activate-subscription.route.js';
import { registerActivationPageRoutes } from './activation-page.route.js';
import { registerCouponRemoveRoutes } from './coupon-remove.route.js';
import { registerPageIssuesRoutes } from './page-issues.route.js';
import { registerProductCategoryRoutes } from './product-categories.route.js';
import { ISSUE_SHOWS_COLLECTIONS } from '../operations/content/page-issues.shows.js';

/** The collections the lists' ready representations show: a change to one may evict some of them. */
export const READY_COLLECTIONS = ['productCategories', 'products', 'productItems', ...ISSUE_SHOWS_COLLECTIONS] as const;

/** `ready`: the ready representations the lists are assembled from (src/cache/ready-parts.ts); none by default. */
export function restRouter(_deps: AppDeps, ready = ReadyParts.off()): Router<AppState> {
  const router = new Router<AppState>();
  registerProductCategoryRoutes(router, _deps, ready);
  registerCouponRemoveRoutes(router, _deps);
  registerPageIssuesRoutes(router, _deps, ready);
  registerActivateSubscriptionRoutes(router, _deps);
  registerActivationPageRoutes(router, _deps);
  return router;
}
