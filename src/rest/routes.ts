// The legacy REST paths: a route table of thin shims over the same operations GraphQL uses.
import { Router } from '@koa/router';
import type { AppDeps, AppState } from '../http/app-context.js';
import { registerActivateSubscriptionRoutes } from './activate-subscription.route.js';
import { registerActivationPageRoutes } from './activation-page.route.js';
import { registerCouponRemoveRoutes } from './coupon-remove.route.js';
import { registerPageIssuesRoutes } from './page-issues.route.js';
import { registerProductCategoryRoutes } from './product-categories.route.js';

export function restRouter(_deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  registerProductCategoryRoutes(router, _deps);
  registerCouponRemoveRoutes(router, _deps);
  registerPageIssuesRoutes(router, _deps);
  registerActivateSubscriptionRoutes(router, _deps);
  registerActivationPageRoutes(router, _deps);
  return router;
}
