// What the playground opens with: a guide in comments, the demo's first query, and an empty
// Authorization header to fill in.

/**
 * The demo's first query (FIRST_QUERY in src/seed/marker.ts, which `npm start` logs after seeding:
 * the demo page, its issues, their category groups, articles and authors), laid out for reading.
 */
export const DEFAULT_QUERY = `{
  page(id: "page-1") {
    name
    issues(first: 3) {
      totalCount
      edges {
        node {
          title
          date
          contents {
            category { name }
            articles {
              title
              authors { name }
              accessAllowed
              preview
            }
          }
        }
      }
    }
  }
}
`;

const GUIDE = `# The gateway's GraphQL playground.
#
# Run: the ▶ button or Ctrl-Enter.
# Docs: the book icon on the left.
# Completion: Ctrl-Space.
#
# As a signed-in user, put a token
# in the Headers tab below:
#   "Authorization": "Bearer <token>"
# (an empty value is not sent)

`;

/** The query editor's content on a first visit (GraphiQL keeps the user's own edits in localStorage). */
export const PLAYGROUND_QUERY = GUIDE + DEFAULT_QUERY;

/** The header editor's content on a first visit. */
export const DEFAULT_HEADERS = `{
  "Authorization": ""
}
`;
