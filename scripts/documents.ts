// `npm run documents -- add|list|remove|check`: the trusted documents in the configured store (MONGODB_URI, or the
// embedded engine under DATA_DIR: stop the service first, or point both at one engine), registered from the
// manifests graphql-codegen's client preset and Apollo's manifest generator write (docs/api.md, "Trusted documents").
//   add <manifest.json> (--client <client_id> | --public) [--name <name>]
//   list
//   remove (--client <client_id> | --public) --name <name>
//   check [<manifest.json>...]     every registered document, or the files given, against the current schema
// Output is JSON on stdout; a refused manifest exits 1 with its code and every problem on stderr.
import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { buildGatewaySchema } from '../src/graphql/build-schema.js';
import { checkDocuments, validManifest } from '../src/graphql/documents/check.js';
import { MANIFEST_LIMITS, ManifestError, readManifest } from '../src/graphql/documents/manifest.js';
import type { DocumentOwner } from '../src/store/documents/trusted-document.doc.js';
import {
  addManifest,
  allTrustedDocuments,
  listManifests,
  removeManifest,
} from '../src/store/documents/trusted-documents.store.js';
import { findClient } from '../src/store/oauth/clients.store.js';
import type { Store } from '../src/store/store.js';
import { CommandError, runStoreCommand, usageError } from './store-command.js';

const USAGE = `usage:
  npm run documents -- add <manifest.json> (--client <client_id> | --public) [--name <name>]
      a graphql-codegen persisted-documents.json or an Apollo persisted query manifest (at most ${MANIFEST_LIMITS.bytes} bytes,
      ${MANIFEST_LIMITS.documents} documents); --name defaults to the file's name; adding a name again replaces that manifest
  npm run documents -- list
  npm run documents -- remove (--client <client_id> | --public) --name <name>
  npm run documents -- check [<manifest.json>...]   (no file: every registered document)`;

type Command =
  | { kind: 'add'; file: string; owner: DocumentOwner; name: string }
  | { kind: 'list' }
  | { kind: 'remove'; owner: DocumentOwner; name: string }
  | { kind: 'check' };

function parseOwned(args: string[]): { positionals: string[]; owner: DocumentOwner; name?: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { client: { type: 'string' }, public: { type: 'boolean', default: false }, name: { type: 'string' } },
    });
  } catch (err) {
    usageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (Boolean(values.client) === values.public) usageError('name one of --client <client_id> or --public');
  const owner: DocumentOwner = values.client ? `client:${values.client}` : 'public';
  return { positionals, owner, name: values.name };
}

function parseCommand(argv: string[]): Command {
  const [command, ...args] = argv;
  switch (command) {
    case 'add': {
      const { positionals, owner, name } = parseOwned(args);
      if (positionals.length !== 1) usageError('add needs one manifest file');
      const file = positionals[0]!;
      return { kind: 'add', file, owner, name: name ?? basename(file) };
    }
    case 'list':
      return { kind: 'list' };
    case 'check':
      return { kind: 'check' };
    case 'remove': {
      const { owner, name } = parseOwned(args);
      if (!name) usageError('remove needs --name');
      return { kind: 'remove', owner, name };
    }
    default:
      usageError(command ? `unknown command "${command}"` : 'a command is needed');
  }
}

const refused = (err: ManifestError): CommandError =>
  new CommandError([`${err.code}: ${err.message}`, ...err.problems.map((p) => `  - ${p}`)].join('\n'));

async function readManifestFile(file: string) {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new CommandError(`cannot read ${file}: ${(err as Error).message}`);
  }
  return readManifest(text);
}

async function run(store: Store, command: Command): Promise<void> {
  if (command.kind === 'add') {
    if (command.owner !== 'public' && !(await findClient(store, command.owner.slice('client:'.length))))
      throw new CommandError(`no OAuth client "${command.owner.slice('client:'.length)}"`);
    const schema = await buildGatewaySchema();
    const docs = validManifest(schema, await readManifestFile(command.file), {
      maxTokens: loadConfig().graphql.maxTokens,
    });
    const counts = await addManifest(store, command.owner, command.name, docs);
    process.stdout.write(`${JSON.stringify({ owner: command.owner, name: command.name, ...counts })}\n`);
  } else if (command.kind === 'list') {
    process.stdout.write(`${JSON.stringify(await listManifests(store), null, 2)}\n`);
  } else if (command.kind === 'remove') {
    const removed = await removeManifest(store, command.owner, command.name);
    if (removed === 0) throw new CommandError(`no manifest "${command.name}" for ${command.owner}`);
    process.stdout.write(`${JSON.stringify({ owner: command.owner, name: command.name, removed })}\n`);
  } else {
    await report(checkDocuments(await buildGatewaySchema(), await allTrustedDocuments(store)), 'registered');
  }
}

async function report(problems: string[], what: string): Promise<void> {
  if (problems.length)
    throw refused(new ManifestError('DOCUMENTS_INVALID', `${what} documents that do not validate`, problems));
  process.stdout.write(`${JSON.stringify({ valid: true, checked: what })}\n`);
}

/** `check <files>` needs no store: CI runs it against the schema of the code checked out. */
async function checkFiles(files: string[]): Promise<void> {
  const schema = await buildGatewaySchema();
  const problems: string[] = [];
  for (const file of files)
    problems.push(...checkDocuments(schema, await readManifestFile(file)).map((p) => `${file}: ${p}`));
  await report(problems, files.join(', '));
}

const [first, ...rest] = process.argv.slice(2);
if (first === 'check' && rest.length) {
  checkFiles(rest).catch((err: unknown) => {
    const error = err instanceof ManifestError ? refused(err) : err;
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
} else {
  runStoreCommand({
    name: 'documents',
    usage: USAGE,
    parse: parseCommand,
    run: (store, _config, command) =>
      run(store, command).catch((err: unknown) => {
        throw err instanceof ManifestError ? refused(err) : err;
      }),
  });
}
