// The benchmark's progress lines, on stdout.
export const log = (line: string): void => void process.stdout.write(`${line}\n`);
