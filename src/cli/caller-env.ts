/**
 * The bin's sh line (scripts/bundle.mjs) starts Node without NODE_EXTRA_CA_CERTS, which Node would
 * otherwise parse at start-up for TLS that the CLI never opens, and passes the value on as
 * AGENTGATE_NODE_EXTRA_CA_CERTS. Put it back, so that the commands we start (a gate's check, the
 * agent under `iterate`) get the caller's environment as it was.
 */
const CARRIED = 'AGENTGATE_NODE_EXTRA_CA_CERTS';

export function restoreCallerEnv(env: NodeJS.ProcessEnv = process.env): void {
  const carried = env[CARRIED];
  if (carried === undefined) return;
  env.NODE_EXTRA_CA_CERTS = carried;
  delete env[CARRIED];
}
