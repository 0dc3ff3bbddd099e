import { configFromEnv } from './config.ts';
import { deriveApiKeys } from './jwt.ts';

/** `npm run keys`: the API keys for the configured JWT_SECRET, as `npm start` prints them. */
const { jwtSecret } = configFromEnv();
const keys = await deriveApiKeys(jwtSecret);
process.stdout.write(
  `anon key:         ${keys.anonKey}\nservice_role key: ${keys.serviceRoleKey}\n`,
);
