// Path helpers: Koa route patterns (`/cms/page/:id/issues`) as OpenAPI paths (`/cms/page/{id}/issues`),
// so the document uses the route table's own constants.
export const toOpenApiPath = (koaPath: string): string => koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
