import { deriveApiKeys } from './api-keys.ts';
import { configOrExit } from './config.ts';
import { generateSigningKey } from './signing-keys.ts';

/**
 * `npm run keys`: the API keys for the configured JWT_SECRET, as `npm start` prints them.
 * `npm run keys -- signing-key [ES256|RS256]`: a new private signing key, as a one-key JSON
 * array ready to be saved as the file JWT_SIGNING_KEYS_PATH names.
 */
const [command, alg = 'ES256'] = process.argv.slice(2);
if (command === 'signing-key') {
  if (alg !== 'ES256' && alg !== 'RS256') {
    process.stderr.write('usage: npm run keys -- signing-key [ES256|RS256]\n');
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify([await generateSigningKey(alg)], null, 2)}\n`);
} else {
  const keys = await deriveApiKeys(configOrExit().jwtSecret);
  process.stdout.write(
    `publishable key:  ${keys.publishableKey}\nsecret key:       ${keys.secretKey}\n` +
      `anon key:         ${keys.anonKey}\nservice_role key: ${keys.serviceRoleKey}\n`,
  );
}
