/**
 * npm run admin -- grant <email> | revoke <email>
 * Works on the configured database (DATABASE_URL, or the PGlite folder in DATA_DIR; stop the server first
 * when it uses PGlite: only one process may open that folder).
 */
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { setAdmin } from '../modules/auth/admin-grants';

const [action, email] = process.argv.slice(2);
if ((action !== 'grant' && action !== 'revoke') || !email) {
  console.error('Usage: npm run admin -- grant <email>   |   npm run admin -- revoke <email>');
  process.exit(2);
}
const database = await openDatabase(loadConfig());
try {
  const found = await setAdmin(database.db, email, action === 'grant');
  if (!found) {
    console.error(`No user with the email ${email}`);
    process.exitCode = 1;
  } else {
    console.log(action === 'grant' ? `${email} is now an admin` : `${email} is no longer an admin`);
  }
} finally {
  await database.close();
}
