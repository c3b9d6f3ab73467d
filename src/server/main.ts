import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { type Config, ConfigError, loadConfig } from './config';
import { startMaintenance } from './maintenance/orphan-sweep';
import { grantConfiguredAdmins, revokeUnprovedConfiguredAdmins } from './modules/auth/admin-grants';
import { createTotpSecrets } from './modules/auth/totp-secrets';
import { createPasswordHasher } from './security/passwords';
import { totpBoxFor } from './security/totp-keys';
import { openServices } from './services';

/** dist/server/main.js serves dist/web; when run from source, the web build may not exist yet. */
function findWebRoot(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return [path.resolve(here, '../web'), path.resolve(here, '../../dist/web')].find((p) =>
    fs.existsSync(path.join(p, 'index.html')),
  );
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = (line: string) => console.log(line);
  const services = await openServices(config, log);
  const db = services.database.db;
  const revoked = await revokeUnprovedConfiguredAdmins(db, config.adminEmails);
  if (revoked) log(`ADMIN_EMAILS: ${revoked} account(s) lost admin until their email address is confirmed`);
  await grantConfiguredAdmins(db, config.adminEmails);
  const totpBox = totpBoxFor(config);
  const sealed = await createTotpSecrets(db, totpBox).resealAll();
  if (sealed.resealed) log(`TOTP secrets: ${sealed.resealed} sealed under key ${totpBox.currentKeyId}`);
  if (sealed.unreadable)
    log(`TOTP secrets: ${sealed.unreadable} sealed under a key missing from TOTP_ENCRYPTION_KEYS`);
  const app = await buildApp({
    config,
    ...services,
    hasher: createPasswordHasher(),
    totpBox,
    webRoot: findWebRoot(),
  });

  let maintenance: ReturnType<typeof startMaintenance> | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    maintenance?.stop();
    // Behind a load balancer: keep serving while the health probes answer 503, until it has noticed and
    // sends no more (SHUTDOWN_DRAIN_SECONDS); closing at once would refuse what it still sends here.
    app.drain();
    if (config.shutdownDrainSeconds > 0) {
      app.log.info(`${signal} received: draining for ${config.shutdownDrainSeconds} s`);
      await new Promise((r) => setTimeout(r, config.shutdownDrainSeconds * 1000));
    }
    app.log.info(`${signal} received: finishing in-flight requests`);
    // Uploads get 20 s to finish; past that their bodies are stopped so their partial files are removed
    // now (storage puts are all-or-nothing) rather than left to the next sweep.
    const abortUploads = setTimeout(() => {
      const n = app.uploadGuards.abortAll();
      if (n) app.log.warn(`stopped ${n} uploads still arriving at shutdown`);
    }, 20_000);
    abortUploads.unref();
    const force = setTimeout(() => process.exit(1), 25_000);
    force.unref();
    await app.close();
    await services.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // Opt-ins to test stand-ins in production (PAYMENTS=local, MAIL=outbox): said at every start.
  for (const warning of config.warnings) app.log.warn(warning);
  await app.listen({ port: config.port, host: config.host });
  // In the background: a crash may have left partial uploads and objects without a row.
  maintenance = startMaintenance({ config, db: services.database.db, log: (m) => app.log.info(m) });
  log(
    `Master Your Mix is running at ${config.publicOrigin} (database: ${services.database.kind}, data: ${config.dataDir})`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
