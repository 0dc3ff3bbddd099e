import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseTests } from '../../scripts/lib/database-tests.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the test files npm run test:pg runs again on PostgreSQL', () => {
  it('are those that reach a database, DATABASE_URL, another process or a module written at run time', () => {
    const files = [
      'tests/sync/doc-example.integration.test.ts',
      'tests/platform/first-start.test.ts',
      'supabase/local/db/batch.test.ts',
      'src/features/schedule-editor/schedule-editor.integration.test.tsx',
      'src/domain/money/money.test.ts',
      'supabase/local/db/pglite-thread.test.ts',
      'tests/architecture/migrations.test.ts',
    ];
    expect(databaseTests(root, files)).toEqual(files.slice(0, 4));
  });

  const scratch = mkdtempSync(join(tmpdir(), 'database-tests-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
  };

  it('count a file whose local import cannot be followed, and follow import cycles', () => {
    write('a.test.ts', "import { b } from './b.ts';\n");
    write('b.ts', "import { a } from './c.ts';\nexport const b = 1;\n");
    write('c.ts', "import { b } from './b.ts';\nexport const a = b;\n");
    write('lost.test.ts', "import { gone } from './gone.ts';\n");
    write(
      'db.test.ts',
      "import { c } from './b.ts';\nimport x from './supabase/local/db/index.ts';\n",
    );
    write('supabase/local/db/index.ts', 'export default 1;\n');
    expect(databaseTests(scratch, ['a.test.ts', 'lost.test.ts', 'db.test.ts'])).toEqual([
      'lost.test.ts',
      'db.test.ts',
    ]);
  });

  it('count a file that reaches the database through a cycle another test file walked first', () => {
    write('first.test.ts', "import { e } from './e.ts';\n");
    write(
      'e.ts',
      "import { f } from './f.ts';\nimport x from './supabase/local/db/index.ts';\nexport const e = f;\n",
    );
    write('f.ts', "import { e } from './e.ts';\nexport const f = 1;\n");
    write('second.test.ts', "import { f } from './f.ts';\n");
    write('supabase/local/db/index.ts', 'export default 1;\n');
    expect(databaseTests(scratch, ['first.test.ts', 'second.test.ts'])).toEqual([
      'first.test.ts',
      'second.test.ts',
    ]);
  });
});
