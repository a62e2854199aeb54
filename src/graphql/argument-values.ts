// graphql-js 16 builds the arguments of every field it executes, also of the fields that take none: two
// dictionary-mode objects (`Object.create(null)` for the values and for an index of the argument nodes) per
// field, about 600 bytes. That was 18% of what an uncached nested answer allocated and 30% of the REST issue
// list's (docs/decisions.md, "Library costs bypassed at schema build"). A field without arguments defined or given now gets one shared, frozen, empty
// object (the same null-prototype shape graphql-js would build); every other field, and directives, go through
// graphql-js's own function. graphql-js's executor looks the function up on the module's exports at each call
// (its CommonJS build, which Node loads for `graphql`), so replacing the export is enough; graphql 17 drops
// these allocations itself, and type-graphql 2 still pins graphql 16.
import values from 'graphql/execution/values.js';

const NO_ARGUMENTS: Record<string, unknown> = Object.freeze(Object.create(null) as Record<string, unknown>);

let installed = false;

export function shareEmptyArguments(): void {
  if (installed) return;
  installed = true;
  const own = values.getArgumentValues;
  values.getArgumentValues = (def, node, variableValues) =>
    def.args.length === 0 && !node.arguments?.length ? NO_ARGUMENTS : own(def, node, variableValues);
}
