/** A real small disk for DISK_FULL tests: a tmpfs, which needs root (tests skip where it cannot be mounted). */
import { execFileSync } from 'node:child_process';
import { tempDir } from './repo.js';

export function canMountTmpfs(): boolean {
  const dir = tempDir('agentgate-mount-probe-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir]);
    return true;
  } catch {
    return false;
  }
}
