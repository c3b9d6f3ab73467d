/** npm run migrate: applies the SQL migrations to the configured database and exits (start does it too). */
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';

const config = loadConfig();
const database = await openDatabase(config);
console.log(`Migrations applied (${database.kind}${config.databaseUrl ? '' : `, ${config.dataDir}`})`);
await database.close();
