// Debian packages the test and bench commands need, installed with apt-get when missing (as root; otherwise
// the exact command to run is printed and the process stops), so both work on a fresh machine.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

/** `packages`: a file each package installs (checked first) -> the package's name. */
export function ensureDebianPackages(packages) {
  const missing = [
    ...new Set(
      Object.entries(packages)
        .filter(([file]) => !fs.existsSync(file))
        .map(([, pkg]) => pkg),
    ),
  ];
  if (!missing.length) return;
  const cmd = `apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    console.error(
      `Missing Debian packages: ${missing.join(', ')}. Install them with:\n  sudo sh -c '${cmd}'`,
    );
    process.exit(1);
  }
  console.log(`installing ${missing.join(', ')} ...`);
  execSync(cmd, { stdio: 'inherit', shell: '/bin/sh' });
}
