// A client for `agentgate-snapshot serve`: one child process, one request line out, one response
// line back. The child is started once, outside any timing (that is the point of serve).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ServeClient {
  request(
    command: string,
    options: Record<string, string | number | boolean>,
    args?: string[],
  ): Promise<unknown>;
  close(): Promise<number | null>;
}

export function startServe(cli: string, args: string[], env: NodeJS.ProcessEnv): ServeClient {
  const child: ChildProcessWithoutNullStreams = spawn(cli, ['serve', ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const waiting: Array<(line: string) => void> = [];
  const stderr: string[] = [];
  child.stderr.on('data', (c: Buffer) => stderr.push(c.toString('utf8')));
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => waiting.shift()?.(line));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  let next = 0;
  return {
    async request(command, options, positional = []) {
      const id = next++;
      const line = new Promise<string>((resolve, reject) => {
        waiting.push(resolve);
        void closed.then(() => reject(new Error(`serve ended: ${stderr.join('').slice(-2000)}`)));
      });
      child.stdin.write(`${JSON.stringify({ id, command, args: positional, options })}\n`);
      const response = JSON.parse(await line) as {
        id: number;
        result?: unknown;
        error?: { code: string; message: string };
      };
      if (response.id !== id) throw new Error(`serve answered ${response.id} to request ${id}`);
      if (response.error)
        throw new Error(`serve ${command}: ${response.error.code}: ${response.error.message}`);
      return response.result;
    },
    async close() {
      child.stdin.end();
      return closed;
    },
  };
}
