// The README's runnable examples: the fenced blocks marked `<!-- readme-test: sh | graphql | node -->`, read in
// order and run against a service as a newcomer would (shell blocks share their variables, as one terminal
// does). Only the service's address is substituted. A block fails on a non-zero exit, a GraphQL `errors`
// answer, an HTTP error status or problem document in its output, or a variable it sets left empty.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/version.js';

export interface Snippet {
  kind: 'sh' | 'graphql' | 'node';
  /** Node snippets marked "in the background" start, and the next blocks run while they wait. */
  background: boolean;
  code: string;
  /** 1-based line of the fence in the README, for messages. */
  line: number;
}

export interface Outcome {
  snippet: Snippet;
  output: string;
  failure: string | null;
}

const MARK =
  /^[ \t]*<!-- readme-test: (sh|graphql|node)(, in the background)? -->[ \t]*\n[ \t]*```\w*\n([\s\S]*?)\n[ \t]*```/gm;

export function readmeSnippets(text = readFileSync(join(projectRoot, 'README.md'), 'utf8')): Snippet[] {
  return [...text.matchAll(MARK)].map((m) => {
    const lines = m[3]!.split('\n');
    const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
    return {
      kind: m[1] as Snippet['kind'],
      background: Boolean(m[2]),
      code: lines.map((l) => l.slice(indent)).join('\n'),
      line: text.slice(0, m.index! + m[0].indexOf('```')).split('\n').length,
    };
  });
}

/** What in an answer means the example did not work. */
function failureIn(output: string): string | null {
  if (/"errors"\s*:/.test(output)) return 'a GraphQL error';
  if (/^HTTP\/[\d.]+ [45]\d\d/m.test(output)) return 'an HTTP error status';
  if (/"status"\s*:\s*[45]\d\d/.test(output)) return 'a problem document';
  return null;
}

interface Ran {
  code: number | null;
  output: string;
}

function run(
  command: string,
  args: string[],
  input: string,
  env: NodeJS.ProcessEnv,
  onOutput?: () => void,
): { done: Promise<Ran> } {
  const child = spawn(command, args, { cwd: projectRoot, env, stdio: 'pipe' });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    onOutput?.();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  child.stdin.end(input);
  const done = new Promise<Ran>((resolve) => child.on('close', (code) => resolve({ code, output })));
  return { done };
}

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms).unref()),
  ]);

/**
 * Runs `snippets` in order against `baseUrl` (http://host:port), with `stateFile` holding the shell variables
 * between blocks. Every outcome is returned, failed or not; background snippets are awaited at the end.
 */
export async function runSnippets(snippets: Snippet[], baseUrl: string, stateFile: string): Promise<Outcome[]> {
  const host = new URL(baseUrl).host;
  const address = (code: string) => code.replaceAll('localhost:4000', host);
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
  writeFileSync(stateFile, '');
  const outcomes: Outcome[] = [];
  const background: Array<{ snippet: Snippet; done: Promise<Ran> }> = [];
  for (const snippet of snippets) {
    const code = address(snippet.code);
    if (snippet.kind === 'graphql') {
      const res = await fetch(`${baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: code }),
      });
      const output = await res.text();
      outcomes.push({ snippet, output, failure: res.status !== 200 ? `HTTP ${res.status}` : failureIn(output) });
    } else if (snippet.kind === 'sh') {
      // Variables the block sets must hold something afterwards (a failed token request leaves "undefined").
      const assigned = [...new Set([...code.matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!))];
      const script = [
        'set -eo pipefail',
        'set -a',
        `. '${stateFile}'`,
        code,
        ...assigned.map(
          (v) =>
            `if [ -z "$${v}" ] || [ "$${v}" = undefined ]; then echo "readme-test: ${v} is empty" >&2; exit 97; fi`,
        ),
        `export -p > '${stateFile}'`,
      ].join('\n');
      const { code: exit, output } = await withTimeout(
        run('bash', ['-c', script], '', env).done,
        60_000,
        `README line ${snippet.line}`,
      );
      outcomes.push({ snippet, output, failure: exit !== 0 ? `exit code ${exit}` : failureIn(output) });
    } else {
      // As a newcomer runs it: `node follow.mjs` in the project folder, with the variables of the terminal.
      let started!: () => void;
      const firstOutput = new Promise<void>((resolve) => (started = resolve));
      const script = `set -a\n. '${stateFile}'\nexec node --input-type=module`;
      const ran = run('bash', ['-c', script], code, env, () => started());
      if (!snippet.background) {
        const { code: exit, output } = await withTimeout(ran.done, 60_000, `README line ${snippet.line}`);
        outcomes.push({ snippet, output, failure: exit !== 0 ? `exit code ${exit}` : failureIn(output) });
        continue;
      }
      // Its first line says it is connected; a moment more for the subscription to be registered.
      await withTimeout(Promise.race([firstOutput, ran.done]), 30_000, `README line ${snippet.line}`);
      await new Promise((r) => setTimeout(r, 1_500));
      background.push({ snippet, done: ran.done });
    }
  }
  for (const { snippet, done } of background) {
    const result = await withTimeout(done, 30_000, `README line ${snippet.line} (in the background)`).catch(
      (err: Error) => ({ code: -1, output: err.message }),
    );
    outcomes.push({
      snippet,
      output: result.output,
      failure: result.code !== 0 ? `exit code ${result.code}` : failureIn(result.output),
    });
  }
  return outcomes;
}
