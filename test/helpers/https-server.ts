/** An https server for transport tests: a child process on 127.0.0.1. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface HttpsServer {
  port: number;
  /** Its self-signed certificate (subject alternative name IP:127.0.0.1), for `http.sslCAInfo`. */
  cert: string;
  /** How many requests reached it so far (each is logged before it is answered). */
  requests(): number;
  /** The headers of every request so far, in order. */
  headers(): Array<Record<string, string>>;
  stop(): void;
}

/**
 * Starts the server with a fresh certificate in `dir`. It serves an empty repository under
 * `/empty.git/` and asks for Basic credentials (401) everywhere else; every answer sets a cookie,
 * so a client that keeps a cookie jar writes one.
 */
export async function startHttpsServer(dir: string): Promise<HttpsServer> {
  const key = join(dir, 'https-key.pem');
  const cert = join(dir, 'https-cert.pem');
  const log = join(dir, 'https-requests.log');
  const headerLog = join(dir, 'https-headers.log');
  spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-days',
    '1',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  const code = `
    const https = require('node:https'); const fs = require('node:fs');
    const s = https.createServer({ key: fs.readFileSync(${JSON.stringify(key)}), cert: fs.readFileSync(${JSON.stringify(cert)}) },
      (req, res) => {
        fs.appendFileSync(${JSON.stringify(headerLog)}, JSON.stringify(req.headers) + '\\n');
        fs.appendFileSync(${JSON.stringify(log)}, req.url + '\\n');
        const cookie = { 'Set-Cookie': 'planted=1; Path=/; Max-Age=86400' };
        const service = /^\\/empty\\.git\\/info\\/refs\\?service=(git-[a-z-]+)$/.exec(req.url);
        if (service === null) {
          res.writeHead(401, { ...cookie, 'WWW-Authenticate': 'Basic realm="x"' });
          return res.end();
        }
        const line = '# service=' + service[1] + '\\n';
        res.writeHead(200, { ...cookie, 'Content-Type': 'application/x-' + service[1] + '-advertisement' });
        res.end((line.length + 4).toString(16).padStart(4, '0') + line + '0000' + '0000');
      });
    s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;
  const server = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    server.once('exit', () => reject(new Error('https server exited')));
  });
  return {
    port,
    cert,
    requests: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').length - 1 : 0),
    headers: () =>
      existsSync(headerLog)
        ? readFileSync(headerLog, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Record<string, string>)
        : [],
    stop: () => server.kill(),
  };
}
