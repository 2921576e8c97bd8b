/** Longest line taken from standard input; a password is far shorter. */
const MAX_LINE = 4096;

/**
 * Reads a secret: on a terminal, typed without echo (Enter ends it, Ctrl-C aborts); otherwise the
 * first line of standard input, so scripts can pipe it in.
 */
export function readSecret(
  prompt: string,
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Promise<string> {
  return input.isTTY ? readFromTerminal(prompt, input, output) : readFirstLine(input);
}

function readFromTerminal(prompt: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  output.write(prompt);
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (err?: Error): void => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      if (err) reject(err);
      else resolve(text);
    };
    const onData = (chunk: Buffer): void => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          finish();
          return;
        }
        if (ch === '\u0003') {
          finish(new Error('aborted'));
          return;
        }
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
        else if (text.length < MAX_LINE) text += ch;
      }
    };
    input.setRawMode(true);
    input.resume();
    input.on('data', onData);
  });
}

function readFirstLine(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = (): void => {
      input.off('data', onData);
      input.off('end', done);
      input.off('error', reject);
      input.pause();
      resolve(text.split(/\r?\n/, 1)[0] ?? '');
    };
    const onData = (chunk: Buffer | string): void => {
      text += chunk.toString();
      if (text.includes('\n') || text.length > MAX_LINE) done();
    };
    input.on('data', onData);
    input.on('end', done);
    input.on('error', reject);
  });
}
