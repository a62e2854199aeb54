// `npm run lint:schema`: every type, field, argument, input field, enum value and directive of schema.graphql
// carries a description, since the playground's docs, IDE hovers and generated client code show nothing else.
// schema.graphql is the built schema itself (test/foundation/schema-drift.test.ts fails when it is stale).
import graphqlPlugin from '@graphql-eslint/eslint-plugin';

export default [
  {
    files: ['schema.graphql'],
    // `rootField` needs the schema to know which types are the roots: it is the same file.
    languageOptions: { parser: graphqlPlugin.parser, parserOptions: { graphQLConfig: { schema: 'schema.graphql' } } },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      '@graphql-eslint/require-description': [
        'error',
        {
          types: true,
          rootField: true,
          FieldDefinition: true,
          InputValueDefinition: true,
          EnumValueDefinition: true,
          DirectiveDefinition: true,
          // type-graphql builds Query, Mutation and Subscription itself and offers no way to describe them;
          // their fields are described (`rootField`).
          ignoredSelectors: ['[type=ObjectTypeDefinition][name.value=/^(Query|Mutation|Subscription)$/]'],
        },
      ],
    },
  },
];
